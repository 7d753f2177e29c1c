package dev.coffer.fuse;

import jnr.ffi.Pointer;

/**
 * libfuse 2's notification to the kernel that a file's cached pages and attributes are stale
 * ({@link WorkerRequest}). Bound apart from the rest, and only on Linux, so that a libfuse
 * without it still mounts.
 *
 * <p>Public only because jnr-ffi implements it; not an API of this module.
 */
public interface LibFuseNotify {
    /**
     * Drops the kernel's cached attributes of node {@code ino} and, with {@code off} 0 and {@code len}
     * 0, all its cached pages; 0, or -errno (-ENOENT: the kernel has forgotten the node; -ENOSYS: a
     * kernel too old). With pages it waits for every cached page of the node, which requests not yet
     * answered may hold: not to be called by a thread that answers requests. With {@code off} -1 it
     * drops the attributes only and waits for nothing: a worker may send that one.
     */
    int fuse_lowlevel_notify_inval_inode(Pointer channel, long ino, long off, long len);
}
