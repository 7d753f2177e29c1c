package dev.coffer.fuse;

import java.io.IOException;

/**
 * FUSE cannot be used on this machine: no {@code /dev/fuse}, no libfuse 2, or no {@code fusermount}.
 * The message says what is missing, which package provides it, and that {@code coffer serve}
 * (WebDAV) works without FUSE; it is meant to be shown as it is, without a stack trace.
 */
public final class FuseUnavailableException extends IOException {
    private static final long serialVersionUID = 1L;

    public FuseUnavailableException(String message) {
        super(message);
    }
}
