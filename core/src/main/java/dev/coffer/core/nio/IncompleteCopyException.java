package dev.coffer.core.nio;

import java.io.IOException;

/**
 * A rescue's copy failed part-way but kept what it holds (at {@link #copy()}); the cause says why.
 * No message: it would be logged or shown, and the path is a cleartext name.
 */
final class IncompleteCopyException extends IOException {
    private static final long serialVersionUID = 1L;
    private final transient String copy;

    IncompleteCopyException(String copy, Throwable cause) {
        super(null, cause);
        this.copy = copy;
    }

    /** The cleartext path of the copy holding part of the content. */
    String copy() {
        return copy;
    }
}
