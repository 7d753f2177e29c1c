package dev.coffer.fuse;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;

/**
 * The C library calls a mount needs: whose files these are, and writing a reply to the FUSE device
 * ({@link NoFlushReplies}). Public only because jnr-ffi implements it; not an API of this module.
 */
public interface LibC {
    int getuid();

    int getgid();

    @SaveError
    @ssize_t
    long writev(int fd, Pointer iov, int count);

    @SaveError
    @ssize_t
    long write(int fd, Pointer buf, @size_t long count);
}
