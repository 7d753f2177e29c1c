package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;

/**
 * The INIT reply gets FUSE_HANDLE_KILLPRIV, and READDIRPLUS where listings are answered with
 * attributes, each only where the kernel offers it; everything else of libfuse's reply, and every
 * other request, stays as it was. The kernel's side is {@link OwnerChangeMountTest}'s and {@link
 * ReaddirPlusMountTest}'s.
 */
class InitReplyTest {
    private static final Runtime RUNTIME = Runtime.getSystemRuntime();
    private static final int LIBFUSE_FLAGS = 0x10 | 0x20; // EXPORT_SUPPORT, BIG_WRITES, as libfuse sets them
    private static final int PLUS = InitReply.FUSE_DO_READDIRPLUS | InitReply.FUSE_READDIRPLUS_AUTO;
    private static final int FUSE_LOOKUP = 1;

    private final NoFlushRepliesTest.RecordingChannels channels = new NoFlushRepliesTest.RecordingChannels();
    private final NoFlushRepliesTest.RecordingLibC libc = new NoFlushRepliesTest.RecordingLibC();
    private final Pointer sessionChannel = Memory.allocateDirect(RUNTIME, 64);

    @Test
    void killprivIsAskedForWhereTheKernelOffersIt() {
        InitReply reply = new InitReply(channels, libc, sessionChannel, 135_168, false);
        assertThat(replyFlags(reply, InitReply.FUSE_HANDLE_KILLPRIV | PLUS | 1)).isEqualTo(LIBFUSE_FLAGS | InitReply.FUSE_HANDLE_KILLPRIV);
        assertThat(replyFlags(reply, PLUS | 1)).as("a kernel without it").isEqualTo(LIBFUSE_FLAGS);
        assertThat(replyFlags(reply, 0)).isEqualTo(LIBFUSE_FLAGS);
    }

    @Test
    void readdirPlusIsAskedForOnlyWhereListingsAnswerItAndTheKernelOffersIt() {
        InitReply reply = new InitReply(channels, libc, sessionChannel, 135_168, true);
        int all = InitReply.FUSE_HANDLE_KILLPRIV | PLUS;
        assertThat(replyFlags(reply, all | 1)).isEqualTo(LIBFUSE_FLAGS | all);
        assertThat(replyFlags(reply, InitReply.FUSE_READDIRPLUS_AUTO)).as("AUTO without READDIRPLUS").isEqualTo(LIBFUSE_FLAGS);
        assertThat(replyFlags(reply, InitReply.FUSE_DO_READDIRPLUS)).isEqualTo(LIBFUSE_FLAGS | InitReply.FUSE_DO_READDIRPLUS);
    }

    @Test
    void onlyInitGoesThroughItsChannelAndAnErrorReplyIsWrittenAsGiven() {
        InitReply reply = new InitReply(channels, libc, sessionChannel, 135_168, true);
        assertThat(reply.channelFor(request(InitReply.FUSE_INIT, 0, 104), 104, sessionChannel)).isEqualTo(channels.made);
        assertThat(reply.channelFor(request(FUSE_LOOKUP, 0, 104), 104, sessionChannel)).isEqualTo(sessionChannel);
        assertThat(reply.channelFor(request(InitReply.FUSE_INIT, 0, 104), 48, sessionChannel)).as("no init_in").isEqualTo(sessionChannel);

        Pointer header = Memory.allocateDirect(RUNTIME, 16);
        header.putInt(0, 16);
        header.putInt(4, -71); // EPROTO: libfuse refuses the kernel's protocol
        Pointer iov = Memory.allocateDirect(RUNTIME, 32);
        iov.putPointer(0, header);
        iov.putLong(8, 16);
        assertThat(reply.send(null, iov, 1)).isZero();
        assertThat(libc.written).hasSize(1);
        assertThat(ByteBuffer.wrap(libc.written.get(0)).order(ByteOrder.nativeOrder()).getInt(4)).isEqualTo(-71);
        reply.close();
        assertThat(channels.destroyed).containsExactly(channels.made);
    }

    /** The flags of libfuse's INIT reply as sent, after an INIT offering {@code kernelFlags}. */
    private int replyFlags(InitReply reply, int kernelFlags) {
        assertThat(reply.channelFor(request(InitReply.FUSE_INIT, kernelFlags, 104), 104, sessionChannel)).isEqualTo(channels.made);
        Pointer header = Memory.allocateDirect(RUNTIME, 16);
        header.putInt(0, 16 + 24);
        Pointer out = Memory.allocateDirect(RUNTIME, 24);
        out.putInt(0, 7); // major
        out.putInt(4, 19); // minor: libfuse 2.9's
        out.putInt(8, 131_072); // max_readahead
        out.putInt(12, LIBFUSE_FLAGS);
        out.putInt(16, 32); // max_background, congestion_threshold
        out.putInt(20, 131_072); // max_write
        Pointer iov = Memory.allocateDirect(RUNTIME, 32);
        iov.putPointer(0, header);
        iov.putLong(8, 16);
        iov.putPointer(16, out);
        iov.putLong(24, 24);
        libc.written.clear();
        assertThat(reply.send(null, iov, 2)).isZero();
        assertThat(libc.fd).isEqualTo(42);
        ByteBuffer sent = ByteBuffer.wrap(libc.written.get(1)).order(ByteOrder.nativeOrder());
        assertThat(sent.getInt(0)).isEqualTo(7);
        assertThat(sent.getInt(4)).isEqualTo(19);
        assertThat(sent.getInt(8)).isEqualTo(131_072);
        assertThat(sent.getInt(20)).isEqualTo(131_072);
        return sent.getInt(12);
    }

    private static Pointer request(int opcode, int flags, int length) {
        Pointer p = Memory.allocateDirect(RUNTIME, length);
        p.putInt(0, length);
        p.putInt(4, opcode);
        p.putLong(8, 1);
        if (length >= 56) {
            p.putInt(40, 7);
            p.putInt(44, 38);
            p.putInt(52, flags); // fuse_init_in.flags
        }
        return p;
    }
}
