package dev.coffer.webdav;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The entity tag of a file or folder: its size and modification time (microseconds), as a strong
 * ETag. The same function serves the {@code ETag} header, {@code getetag} in PROPFIND and the
 * {@code If}/{@code If-Match} checks, so they always agree.
 *
 * <p>Not responsible for comparing tags with request headers ({@link Preconditions}).
 */
final class Etags {
    private Etags() {}

    static String of(BasicFileAttributes a) {
        return "\"" + Long.toHexString(a.size()) + "-" + Long.toHexString(a.lastModifiedTime().to(TimeUnit.MICROSECONDS)) + "\"";
    }

    /** The tag of the file at {@code p}, or empty if nothing is there. */
    static Optional<String> of(Path p) {
        try {
            return Optional.of(of(Files.readAttributes(p, BasicFileAttributes.class)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
