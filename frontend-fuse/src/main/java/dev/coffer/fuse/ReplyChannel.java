package dev.coffer.fuse;

import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.Delegate;
import jnr.ffi.types.size_t;

/**
 * A libfuse 2 channel on the mount's {@code /dev/fuse} descriptor whose send function is Java's:
 * libfuse sends each reply through the channel its request was processed with, so processing a
 * request with such a channel lets Java change the reply on its way (or keep it). Requests are
 * never read from it.
 */
final class ReplyChannel implements AutoCloseable {
    private static final int EIO = 5;

    /** {@code send} of libfuse 2's {@code struct fuse_chan_ops}. Public only because jnr-ffi implements it. */
    public interface Send {
        @Delegate
        int send(Pointer channel, Pointer iov, @size_t long count);
    }

    /** {@code receive} of {@code struct fuse_chan_ops}: never called, requests are read from libfuse's channel. */
    public interface Receive {
        @Delegate
        int receive(Pointer channelRef, Pointer buf, @size_t long size);
    }

    private final LibFuseChannels lib;
    // Held for the mount's life: native code calls them through the pointers in ops.
    private final Send send;
    private final Receive receive = (channelRef, buf, size) -> -EIO;
    private final Pointer ops;
    final Pointer channel;

    ReplyChannel(LibFuseChannels lib, int fd, long bufferSize, Send send) {
        this.lib = lib;
        this.send = send;
        Runtime runtime = Runtime.getSystemRuntime();
        int word = runtime.addressSize();
        ops = Memory.allocateDirect(runtime, 3L * word);
        ops.putPointer(0, runtime.getClosureManager().getClosurePointer(Receive.class, receive));
        ops.putPointer(word, runtime.getClosureManager().getClosurePointer(Send.class, this.send));
        ops.putAddress(2L * word, 0L); // no destroy: the descriptor is libfuse's channel's, closed by its teardown
        channel = lib.fuse_chan_new(ops, fd, bufferSize, null);
        if (channel == null) {
            throw new IllegalStateException("libfuse could not make a channel (out of memory)");
        }
    }

    /** Frees the channel (not the descriptor). Only once no request is processed any more. */
    @Override
    public void close() {
        lib.fuse_chan_destroy(channel);
    }
}
