package dev.coffer.fuse;

import java.io.IOException;

/**
 * The folder cannot be a mount point: not a folder, not empty, or already in use by a live mount.
 * The message says which, and what to do; meant to be shown as it is.
 */
public final class MountPointException extends IOException {
    private static final long serialVersionUID = 1L;

    public MountPointException(String message) {
        super(message);
    }
}
