package dev.coffer.fuse;

import jnr.ffi.Pointer;
import jnr.ffi.types.size_t;

/**
 * The part of libfuse 2's channel API that {@link NoFlushReplies} and {@link ReaddirPlus} need:
 * more channels on the mount's {@code /dev/fuse} descriptor, and processing a request made in Java.
 * Bound apart from {@link LibFuseSession}, and only on Linux, so that a libfuse without these
 * functions still mounts (it then sends FLUSH for every close and lists with plain READDIR).
 *
 * <p>Public only because jnr-ffi implements it; not an API of this module.
 */
public interface LibFuseChannels {
    int fuse_chan_fd(Pointer channel);

    /** A channel with the given {@code struct fuse_chan_ops} on descriptor {@code fd}; null if out of memory. */
    Pointer fuse_chan_new(Pointer ops, int fd, @size_t long bufsize, Pointer data);

    /** Frees a channel made by {@link #fuse_chan_new}, after calling its ops' destroy if it has one. */
    void fuse_chan_destroy(Pointer channel);

    /** Processes the request of {@code len} bytes in {@code buf}, replying through {@code channel} ({@link ReaddirPlus}). */
    void fuse_session_process(Pointer session, Pointer buf, @size_t long len, Pointer channel);
}
