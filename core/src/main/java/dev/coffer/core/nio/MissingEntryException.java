package dev.coffer.core.nio;

import java.nio.file.NoSuchFileException;

/**
 * A {@link NoSuchFileException} for a cleartext path that names no entry, without a stack trace.
 * Misses are the ordinary answer to the lookup a program makes before creating a name (tar, cp,
 * editors): a mount answers thousands of them per second, and filling a stack trace as deep as a
 * FUSE callback's costs more than the lookup itself. The path says all there is to say.
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
