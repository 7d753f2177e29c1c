package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;

/**
 * Which requests {@link NoFlushReplies} takes (opens for reading only, nothing else), what its send
 * function writes (FOPEN_NOFLUSH added to a successful open's reply, every other byte as given, on
 * the mount's descriptor) and the channel it makes (libfuse's own receive never replaced by a
 * destroy that would close the descriptor), with libfuse and the C library replaced by recorders.
 * The kernel's side is {@link NoFlushMountTest}'s.
 */
class NoFlushRepliesTest {
    private static final Runtime RUNTIME = Runtime.getSystemRuntime();
    private static final int FUSE_LOOKUP = 1;
    private static final int FUSE_CREATE = 35;
    private static final int O_WRONLY = 01;
    private static final int O_RDWR = 02;
    private static final int O_TRUNC = 01000;

    private final RecordingChannels channels = new RecordingChannels();
    private final RecordingLibC libc = new RecordingLibC();
    private final Pointer sessionChannel = Memory.allocateDirect(RUNTIME, 64);
    private final NoFlushReplies replies = new NoFlushReplies(channels, libc, sessionChannel, 135_168);

    @Test
    void makesOneChannelOnTheMountsDescriptorWithoutADestroyOfItsOwn() {
        assertThat(channels.fd).isEqualTo(42);
        assertThat(channels.bufsize).isEqualTo(135_168);
        assertThat(channels.ops.getAddress(0)).as("receive").isNotZero();
        assertThat(channels.ops.getAddress(RUNTIME.addressSize())).as("send").isNotZero();
        assertThat(channels.ops.getAddress(2L * RUNTIME.addressSize())).as("destroy").isZero();
        replies.close();
        assertThat(channels.destroyed).containsExactly(channels.made);
    }

    @Test
    void onlyAnOpenForReadingOnlyGoesThroughItsChannel() {
        assertThat(replies.channelFor(request(NoFlushReplies.FUSE_OPEN, 0), 48, sessionChannel)).isEqualTo(channels.made);
        assertThat(replies.channelFor(request(NoFlushReplies.FUSE_OPEN, O_TRUNC), 48, sessionChannel)).isEqualTo(channels.made);
        assertThat(replies.channelFor(request(NoFlushReplies.FUSE_OPEN, O_WRONLY), 48, sessionChannel)).isEqualTo(sessionChannel);
        assertThat(replies.channelFor(request(NoFlushReplies.FUSE_OPEN, O_RDWR), 48, sessionChannel)).isEqualTo(sessionChannel);
        assertThat(replies.channelFor(request(FUSE_CREATE, 0), 48, sessionChannel)).as("create").isEqualTo(sessionChannel);
        assertThat(replies.channelFor(request(FUSE_LOOKUP, 0), 48, sessionChannel)).isEqualTo(sessionChannel);
        assertThat(replies.channelFor(request(NoFlushReplies.FUSE_OPEN, 0), 40, sessionChannel)).as("no open_in").isEqualTo(sessionChannel);
    }

    @Test
    void aSuccessfulOpensReplyGetsTheFlagAndNothingElseChanges() {
        Pointer header = outHeader(32, 0, 77);
        Pointer open = Memory.allocateDirect(RUNTIME, 16);
        open.putLong(0, 5);
        open.putInt(8, 1 << 1); // FOPEN_KEEP_CACHE, as libfuse may set
        open.putInt(12, 0);
        assertThat(replies.send(channels.made, iov(header, 16, open, 16), 2)).isZero();
        assertThat(libc.fd).isEqualTo(42);
        assertThat(libc.written).hasSize(2);
        assertThat(libc.written.get(0)).isEqualTo(bytes(header, 16));
        Pointer sent = Memory.allocateDirect(RUNTIME, 16);
        sent.put(0, libc.written.get(1), 0, 16);
        assertThat(sent.getLong(0)).as("fh").isEqualTo(5);
        assertThat(sent.getInt(8)).as("open_flags").isEqualTo((1 << 1) | NoFlushReplies.FOPEN_NOFLUSH);
        assertThat(sent.getInt(12)).isZero();
    }

    @Test
    void anErrorReplyIsWrittenAsGiven() {
        Pointer header = outHeader(16, -13, 78); // EACCES
        assertThat(replies.send(channels.made, iov(header, 16, null, 0), 1)).isZero();
        assertThat(libc.written).containsExactly(bytes(header, 16));
    }

    @Test
    void aFailedWriteIsMinusErrnoForLibfuse() {
        libc.fail = 2; // ENOENT: the open was interrupted; libfuse then releases the handle itself
        Pointer header = outHeader(32, 0, 79);
        Pointer open = Memory.allocateDirect(RUNTIME, 16);
        assertThat(replies.send(channels.made, iov(header, 16, open, 16), 2)).isEqualTo(-2);
    }

    @Test
    void isBoundOnlyOn64BitLinuxWithALibfuseThatHasTheChannelFunctions() {
        assertThat(NativeFuse.channels("libfuse.so.2", "Linux", 8)).isPresent();
        assertThat(NativeFuse.channels("libfuse.so.2", "Mac OS X", 8)).isEmpty();
        assertThat(NativeFuse.channels("libfuse.so.2", "Windows 11", 8)).isEmpty();
        assertThat(NativeFuse.channels("libfuse.so.2", "Linux", 4)).isEmpty();
        assertThat(NativeFuse.channels("libno-such-fuse.so.2", "Linux", 8)).isEmpty();
    }

    private static Pointer request(int opcode, int flags) {
        Pointer p = Memory.allocateDirect(RUNTIME, 48);
        p.putInt(0, 48);
        p.putInt(4, opcode);
        p.putLong(8, 1);
        p.putInt(40, flags);
        return p;
    }

    private static Pointer outHeader(int len, int error, long unique) {
        Pointer p = Memory.allocateDirect(RUNTIME, 16);
        p.putInt(0, len);
        p.putInt(4, error);
        p.putLong(8, unique);
        return p;
    }

    private static Pointer iov(Pointer first, long firstLength, Pointer second, long secondLength) {
        Pointer iov = Memory.allocateDirect(RUNTIME, 32);
        iov.putPointer(0, first);
        iov.putLong(8, firstLength);
        if (second != null) {
            iov.putPointer(16, second);
            iov.putLong(24, secondLength);
        }
        return iov;
    }

    private static byte[] bytes(Pointer p, int n) {
        byte[] b = new byte[n];
        p.get(0, b, 0, n);
        return b;
    }

    /** libfuse's channel functions, recording the channel made and destroyed (InitReplyTest's too). */
    static final class RecordingChannels implements LibFuseChannels {
        final Pointer made = Memory.allocateDirect(RUNTIME, 64);
        final List<Pointer> destroyed = new ArrayList<>();
        Pointer ops;
        int fd;
        long bufsize;

        @Override
        public int fuse_chan_fd(Pointer channel) {
            return 42;
        }

        @Override
        public Pointer fuse_chan_new(Pointer ops, int fd, long bufsize, Pointer data) {
            this.ops = ops;
            this.fd = fd;
            this.bufsize = bufsize;
            return made;
        }

        @Override
        public void fuse_chan_destroy(Pointer channel) {
            destroyed.add(channel);
        }

        @Override
        public void fuse_session_process(Pointer session, Pointer buf, long len, Pointer channel) {
            throw new AssertionError("no request is processed by a reply channel's owner itself");
        }
    }

    /** The C library's writev, recording what is written (InitReplyTest's too). */
    static final class RecordingLibC implements LibC {
        final List<byte[]> written = new ArrayList<>();
        int fd = -1;
        int fail; // an errno to fail every writev with, or 0

        @Override
        public int getuid() {
            return 0;
        }

        @Override
        public int getgid() {
            return 0;
        }

        @Override
        public long write(int fd, Pointer buf, long count) {
            throw new AssertionError("replies are written with writev");
        }

        @Override
        public long writev(int fd, Pointer iov, int count) {
            this.fd = fd;
            if (fail != 0) {
                jnr.ffi.LastError.setLastError(RUNTIME, fail);
                return -1;
            }
            long total = 0;
            for (int i = 0; i < count; i++) {
                int len = (int) iov.getLong(16L * i + 8);
                written.add(bytes(iov.getPointer(16L * i), len));
                total += len;
            }
            return total;
        }
    }
}
