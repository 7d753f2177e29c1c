package dev.coffer.fuse;

import jnr.ffi.Pointer;
import jnr.ffi.byref.IntByReference;
import jnr.ffi.byref.PointerByReference;
import jnr.ffi.types.size_t;
import ru.serce.jnrfuse.struct.FuseOperations;

/**
 * The part of libfuse 2's API that {@code fuse_main} is made of: set up (parse options, mount,
 * create the file system), receive and process one request, tear down. Calling these from Java
 * threads, instead of letting {@code fuse_main} run libfuse's own loop, is what makes every callback
 * arrive on a thread that is already attached to the JVM (see {@link SessionLoop}).
 *
 * <p>Public only because jnr-ffi implements it; not an API of this module.
 */
public interface LibFuseSession {
    Pointer fuse_setup(int argc, String[] argv, FuseOperations op, @size_t long opSize, PointerByReference mountpoint,
            IntByReference multithreaded, Pointer userData);

    Pointer fuse_get_session(Pointer fuse);

    Pointer fuse_session_next_chan(Pointer session, Pointer channel);

    @size_t
    long fuse_chan_bufsize(Pointer channel);

    /** Reads one request into {@code buf} (a {@code struct fuse_buf}); 0 once unmounted, -errno on failure. */
    int fuse_session_receive_buf(Pointer session, Pointer buf, Pointer channelRef);

    void fuse_session_process_buf(Pointer session, Pointer buf, Pointer channel);

    int fuse_session_exited(Pointer session);

    void fuse_session_exit(Pointer session);

    /** Unmounts if still mounted, destroys the file system, frees {@code mountpoint}. */
    void fuse_teardown(Pointer fuse, Pointer mountpoint);
}
