package dev.coffer.webdav;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Turns a file system error met inside Milton's PROPFIND into an unchecked one that names only its
 * kind: Milton logs what it catches, and a NIO exception's message carries the cleartext path.
 *
 * <p>Not responsible for the status code (Milton answers 500; the request is retried by clients).
 */
final class PathFree {
    private PathFree() {}

    static UncheckedIOException unchecked(String what, IOException e) {
        return new UncheckedIOException(what + " failed: " + e.getClass().getSimpleName(), new IOException(e.getClass().getName()));
    }
}
