package dev.coffer.fuse;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.function.LongSupplier;

/**
 * What the mount does when a request comes upon a lost earlier write: the vault undid a write that
 * ran behind and whose request had been answered (a full disk), and reports it to the next call
 * (the core's {@code EarlierWriteLostException}, recognised here by how its message begins: the
 * frontend sees java.nio only). The kernel may drop that report (a request that is not the first of
 * its write(2)), or it may reach another process than the writer (a child's close at exec), so it
 * is kept on the handle ({@link KeptWriteFailures}) for the sender whose request it was and for the
 * handle's latest writer; and the kernel is made to drop the lost pages it caches
 * ({@link WorkerRequest}). docs/fuse.md, "A write request's failure, reported again at close".
 *
 * <p>Not responsible for the file operations themselves ({@link FileOps}).
 */
final class LostWrites {
    /** The beginning of a vault's message for the failure of an earlier write (core: {@code EarlierWriteLostException}). */
    static final String EARLIER_WRITE_LOST = "an earlier write of this file failed and was undone";

    private final OpenFileTable handles;
    /** Who sent the request being answered (FUSE's pid: the caller's thread ID); 0 outside a mount. */
    private final LongSupplier requester;

    LostWrites(OpenFileTable handles, LongSupplier requester) {
        this.handles = handles;
        this.requester = requester;
    }

    /** The sender of the request being answered. */
    long sender() {
        return requester.getAsLong();
    }

    /** Before a write of {@code sender}: its own kept report, now taken (the write is refused with it), or null. */
    IOException keptForWrite(long fh, long sender) throws ClosedChannelException {
        return handles.keptWriteFailures(fh).takeOwn(sender);
    }

    /**
     * The monitor that a write on handle {@code fh} holds while it reaches the file and its sender is
     * recorded as the latest writer, so that a request coming upon a loss names the right writer.
     */
    Object writeOrder(long fh) throws ClosedChannelException {
        return handles.keptWriteFailures(fh);
    }

    /** A write of {@code sender} was answered: its bytes may be written behind. Holding {@link #writeOrder}. */
    void wrote(long fh, long sender) throws ClosedChannelException {
        handles.keptWriteFailures(fh).wrote(sender);
    }

    /** A write of {@code sender} failed with {@code failure}: kept for it if it reports a loss (the kernel may drop it). */
    IOException writeFailed(long fh, IOException failure, long sender) {
        if (reportsAnEarlierWriteLost(failure)) {
            handles.noteWriteFailure(fh, failure, sender);
        }
        return noticed(fh, failure);
    }

    /** For a flush of the current sender: its own kept report (taken) or another's, or null. */
    IOException keptForFlush(long fh) throws ClosedChannelException {
        return handles.keptWriteFailures(fh).forFlush(sender());
    }

    /** For an fsync: one kept report, every one taken, or null. */
    IOException keptForFsync(long fh) throws ClosedChannelException {
        return handles.keptWriteFailures(fh).takeAll();
    }

    /** {@code failure}, after marking the request for a cache invalidation if it reports a lost earlier write. */
    static IOException noticed(IOException failure) {
        if (reportsAnEarlierWriteLost(failure)) {
            WorkerRequest.noteLostWrite();
        }
        return failure;
    }

    /**
     * As {@link #noticed(IOException)}, for a request on handle {@code fh}: a lost earlier write that
     * another sender's request came upon (a child's close at exec, whose error the kernel drops; a
     * process sharing the handle) is also kept for the handle's latest writer, whose bytes they were.
     */
    IOException noticed(long fh, IOException failure) {
        if (reportsAnEarlierWriteLost(failure)) {
            try {
                KeptWriteFailures kept = handles.keptWriteFailures(fh);
                synchronized (kept) { // a write that reached the file has recorded its sender
                    long owner = kept.lastWriter();
                    if (owner != KeptWriteFailures.NO_WRITER && owner != sender()) {
                        kept.keepForWriter(owner, failure);
                    }
                }
            } catch (ClosedChannelException released) {
                // the handle is gone: nobody left on it to tell
            }
        }
        return noticed(failure);
    }

    /**
     * Whether {@code failure} says that bytes of an earlier write, already answered, were lost. A
     * write's own failure loses nothing: the kernel's count then says what was written.
     */
    static boolean reportsAnEarlierWriteLost(IOException failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && message.startsWith(EARLIER_WRITE_LOST)) {
                return true;
            }
        }
        return false;
    }
}
