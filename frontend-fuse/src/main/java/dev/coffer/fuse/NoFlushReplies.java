package dev.coffer.fuse;

import jnr.ffi.LastError;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * Answers every open for reading only with {@code FOPEN_NOFLUSH}, so that the kernel sends no FLUSH
 * when such a file is closed: one round trip less for each file a program reads (md5sum, grep, a
 * compiler, a thumbnailer), each a wait for two thread wake-ups. A handle opened for reading only
 * has nothing to flush ({@link FileOps#flush} answers it without work), and the mount keeps no POSIX
 * locks of its own (the kernel keeps them), so that request only cost time. Handles that may write
 * keep FLUSH: it is how a write that failed behind the program's back reaches its close(2).
 *
 * <p>How: libfuse 2 cannot set this flag (its {@code fuse_file_info} has no bit for it) and sends each
 * reply through the channel its request was processed with. So a read-only open is processed with a
 * second channel on the same {@code /dev/fuse} descriptor, made here, whose send function sets the
 * flag in a successful open's reply and then writes the reply as libfuse's own does (one writev);
 * every other request keeps libfuse's channel. A kernel older than 5.16 ignores the flag and sends
 * FLUSH as before.
 *
 * <p>Not responsible for reading requests ({@link SessionLoop}) or for what an open does ({@link FileOps}).
 */
final class NoFlushReplies {
    /** FUSE_OPEN in {@code fuse_in_header.opcode}. */
    static final int FUSE_OPEN = 14;
    /** FOPEN_NOFLUSH in {@code fuse_open_out.open_flags} (kernel protocol 7.35). */
    static final int FOPEN_NOFLUSH = 1 << 5;
    private static final int O_ACCMODE = 3;
    private static final int O_RDONLY = 0;
    /** sizeof(struct fuse_in_header); {@code fuse_open_in.flags} follows it. */
    private static final int IN_HEADER = 40;
    /** sizeof(struct fuse_out_header): len, error, unique. */
    private static final int OUT_HEADER = 16;
    /** sizeof(struct fuse_open_out): fh, open_flags, padding. */
    private static final int OPEN_OUT = 16;
    /** sizeof(struct iovec) on 64-bit Linux: void *iov_base, size_t iov_len. */
    private static final int IOVEC = 16;

    private final LibC libc;
    private final Runtime runtime = Runtime.getSystemRuntime();
    private final int fd;
    private final ReplyChannel channel;

    NoFlushReplies(LibFuseChannels lib, LibC libc, Pointer sessionChannel, long bufferSize) {
        this.libc = libc;
        this.fd = lib.fuse_chan_fd(sessionChannel);
        this.channel = new ReplyChannel(lib, fd, bufferSize, this::send);
    }

    /**
     * The channel to process a request with: this one for an open for reading only, else {@code
     * sessionChannel}. {@code request} holds the {@code length} bytes read from the device.
     */
    Pointer channelFor(Pointer request, int length, Pointer sessionChannel) {
        boolean readOnlyOpen = length >= IN_HEADER + 4 && request.getInt(4) == FUSE_OPEN
                && (request.getInt(IN_HEADER) & O_ACCMODE) == O_RDONLY;
        return readOnlyOpen ? channel.channel : sessionChannel;
    }

    /** Frees the channel (not the descriptor). Only once no request is processed any more. */
    void close() {
        channel.close();
    }

    /** The channel's send function (package-private for tests, which call it with replies of their own). */
    int send(Pointer ignoredChannel, Pointer iov, long count) {
        if (count >= 2 && iov.getLong(8) == OUT_HEADER && iov.getPointer(0).getInt(4) == 0
                && iov.getLong(IOVEC + 8) >= OPEN_OUT) {
            Pointer open = iov.getPointer(IOVEC);
            open.putInt(8, open.getInt(8) | FOPEN_NOFLUSH);
        }
        // Like libfuse's own send: -errno on failure (ENOENT: the kernel no longer waits for the reply; libfuse
        // then releases the handle).
        return libc.writev(fd, iov, (int) count) < 0 ? -LastError.getLastError(runtime) : 0;
    }
}
