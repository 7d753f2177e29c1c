package dev.coffer.fuse;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One FUSE handle's reports of lost earlier writes that write requests were refused with, by who
 * sent the request (FUSE's pid: the sending thread's ID), until they are told again: the kernel may
 * have dropped them ({@link OpenFileTable}), or that another sender's request came upon first (a
 * child's close at exec, another process sharing the handle): then it is kept for the handle's latest
 * writer, whose bytes were lost. Several processes can share one handle (a shell's {@code exec >out}),
 * each with its own loss to hear of. Thread-safe; empty almost always.
 */
final class KeptWriteFailures {
    /** No write request has been answered on the handle yet. */
    static final long NO_WRITER = -1;

    /**
     * A kept report, and whether it was kept at the sender's own refused write (which ended that
     * write(2), so the sender's next request starts a new one and hears it) or for the handle's
     * latest writer by another sender's request (the writer may be in the middle of a write(2) whose
     * later request the kernel lets pass with a short count: it is refused once more after that).
     */
    private record Kept(IOException failure, boolean atOwnRequest) {}

    private final Map<Long, Kept> byRequester = new LinkedHashMap<>();
    /** Read without the lock on every write request: true only while something is kept. */
    private volatile boolean any;
    /** The sender of the latest write answered on the handle: whose bytes a write running behind holds. */
    private volatile long lastWriter = NO_WRITER;

    /**
     * A write request of {@code requester} was answered (its bytes may be written behind). Called
     * holding this object's monitor together with the write, so the latest writer is the one whose
     * write reached the file last; {@link LostWrites} reads it under the same monitor.
     */
    void wrote(long requester) {
        if (lastWriter != requester) {
            lastWriter = requester;
        }
    }

    /** The sender of the latest write answered on the handle, or {@link #NO_WRITER}. */
    long lastWriter() {
        return lastWriter;
    }

    /**
     * Keeps {@code failure}, which {@code requester}'s own write request was refused with, unless it
     * has one kept already (one report is what it needs).
     */
    synchronized void keep(long requester, IOException failure) {
        byRequester.putIfAbsent(requester, new Kept(failure, true));
        any = true;
    }

    /** Keeps {@code failure}, which another sender's request came upon, for the handle's latest writer {@code writer}. */
    synchronized void keepForWriter(long writer, IOException failure) {
        byRequester.putIfAbsent(writer, new Kept(failure, false));
        any = true;
    }

    /**
     * {@code requester}'s own report, or null: its write is refused with it. Taken if it was kept at
     * the requester's own refused write; kept for another's once more (as if at its own).
     */
    IOException takeOwn(long requester) {
        if (!any) {
            return null;
        }
        synchronized (this) {
            Kept own = byRequester.remove(requester);
            if (own != null && !own.atOwnRequest()) {
                byRequester.put(requester, new Kept(own.failure(), true));
            }
            any = !byRequester.isEmpty();
            return own == null ? null : own.failure();
        }
    }

    /**
     * For a flush (a close) of {@code requester}: its own report, taken, or else another's, left kept
     * for that one's own close (a child's or another program's close of the same open file must not
     * take it away), or null.
     */
    IOException forFlush(long requester) {
        if (!any) {
            return null;
        }
        synchronized (this) {
            Kept own = byRequester.remove(requester);
            any = !byRequester.isEmpty();
            if (own != null) {
                return own.failure();
            }
            return byRequester.isEmpty() ? null : byRequester.values().iterator().next().failure();
        }
    }

    /** For an fsync: one report, every one taken, or null. */
    IOException takeAll() {
        if (!any) {
            return null;
        }
        synchronized (this) {
            IOException first = byRequester.isEmpty() ? null : byRequester.values().iterator().next().failure();
            byRequester.clear();
            any = false;
            return first;
        }
    }
}
