package dev.coffer.fuse;

import jnr.ffi.LastError;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * The INIT reply, with the capabilities libfuse 2 cannot ask for added where the kernel offers them:
 *
 * <ul>
 *   <li>{@code FUSE_HANDLE_KILLPRIV} (always): without it the kernel sends a GETATTR before every
 *       SETATTR that may have to clear setuid and setgid bits (each chown and fchown, as {@code tar
 *       xf} run by root, {@code cp -a} and {@code rsync -a} do for every file), to learn the file's
 *       mode again. No entry of a mount ever shows those bits (chmod drops them, see {@link
 *       AttributeOps}; getattr reports nine permission bits, see {@link StatFiller}) and extended
 *       attributes are not served, so there is never anything to clear: the flag spares a round
 *       trip per file and changes no answer.
 *   <li>{@code FUSE_DO_READDIRPLUS | FUSE_READDIRPLUS_AUTO}, when listings are answered with
 *       attributes ({@link ReaddirPlus}).
 * </ul>
 *
 * <p>How: INIT is processed with a {@link ReplyChannel} on the mount's descriptor whose send function
 * adds the flags to a successful reply and writes it as libfuse would (one writev), as {@link
 * NoFlushReplies} does for opens.
 */
final class InitReply {
    static final int FUSE_INIT = 26;
    static final int FUSE_DO_READDIRPLUS = 1 << 13;
    static final int FUSE_READDIRPLUS_AUTO = 1 << 14;
    /** The kernel leaves clearing setuid, setgid and capabilities on write, truncate and chown to the mount (protocol 7.26). */
    static final int FUSE_HANDLE_KILLPRIV = 1 << 19;
    /** sizeof(struct fuse_in_header); {@code fuse_init_in}: major, minor, max_readahead, flags follow. */
    private static final int IN_HEADER = 40;
    /** offsetof(struct fuse_init_in, flags), offsetof(struct fuse_init_out, flags). */
    private static final int FLAGS = 12;
    private static final int IOVEC = 16;

    private final LibC libc;
    private final Runtime runtime = Runtime.getSystemRuntime();
    private final int fd;
    private final boolean readdirPlus;
    private final ReplyChannel channel;
    private volatile int kernelFlags;

    /** @param readdirPlus whether to ask for READDIRPLUS (a {@link ReaddirPlus} answers it) */
    InitReply(LibFuseChannels lib, LibC libc, Pointer sessionChannel, long bufferSize, boolean readdirPlus) {
        this.libc = libc;
        this.readdirPlus = readdirPlus;
        this.fd = lib.fuse_chan_fd(sessionChannel);
        this.channel = new ReplyChannel(lib, fd, bufferSize, this::send);
    }

    /** The channel to process INIT with (noting the flags the kernel offers), else {@code other}. */
    Pointer channelFor(Pointer request, int length, Pointer other) {
        if (length >= IN_HEADER + FLAGS + 4 && request.getInt(4) == FUSE_INIT) {
            kernelFlags = request.getInt(IN_HEADER + FLAGS);
            return channel.channel;
        }
        return other;
    }

    /** The flags added to libfuse's reply for a kernel that offers {@code offered}. */
    int added(int offered) {
        int flags = offered & FUSE_HANDLE_KILLPRIV;
        if (readdirPlus && (offered & FUSE_DO_READDIRPLUS) != 0) {
            flags |= offered & (FUSE_DO_READDIRPLUS | FUSE_READDIRPLUS_AUTO);
        }
        return flags;
    }

    /** Frees the channel (not the descriptor). Only once no request is processed any more. */
    void close() {
        channel.close();
    }

    /** The channel's send function (package-private for tests): the reply with {@link #added} flags, written as libfuse would. */
    int send(Pointer ignoredChannel, Pointer iov, long count) {
        if (count >= 2 && iov.getPointer(0).getInt(4) == 0 && iov.getLong(IOVEC + 8) >= FLAGS + 4) {
            Pointer out = iov.getPointer(IOVEC);
            out.putInt(FLAGS, out.getInt(FLAGS) | added(kernelFlags));
        }
        return libc.writev(fd, iov, (int) count) < 0 ? -LastError.getLastError(runtime) : 0;
    }
}
