package dev.coffer.core.nio;

import java.nio.file.NoSuchFileException;

/**
 * A {@link NoSuchFileException} for a cleartext path that names no entry, without a stack trace.
 * Misses are the ordinary answer to the lookup a program makes before creating a name (tar, cp,
 * editors), thousands per second through a frontend, whose calls make deep stacks; the trace would
 * never be read (frontends turn the exception into an error code or a message) and filling it was
 * a measurable share of a tar extraction's profile. The path says all there is to say.
 */
final class MissingEntryException extends NoSuchFileException {
    private static final long serialVersionUID = 1L;

    MissingEntryException(String path) {
        super(path);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
