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

    private final Map<Long, IOException> byRequester = new LinkedHashMap<>();
    /** Read without the lock on every write request: true only while something is kept. */
    private volatile boolean any;
    /** The sender of the latest write answered on the handle: whose bytes a write running behind holds. */
    private volatile long lastWriter = NO_WRITER;

    /** A write request of {@code requester} was answered (its bytes may be written behind). */
    void wrote(long requester) {
        if (lastWriter != requester) {
            lastWriter = requester;
        }
    }

    /** The sender of the latest write answered on the handle, or {@link #NO_WRITER}. */
    long lastWriter() {
        return lastWriter;
    }

    /** Keeps {@code failure} for {@code requester}, unless it has one kept already (one report is what it needs). */
    synchronized void keep(long requester, IOException failure) {
        byRequester.putIfAbsent(requester, failure);
        any = true;
    }

    /** {@code requester}'s own report, now taken, or null: its next write is refused with it. */
    IOException takeOwn(long requester) {
        if (!any) {
            return null;
        }
        synchronized (this) {
            IOException own = byRequester.remove(requester);
            any = !byRequester.isEmpty();
            return own;
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
            IOException own = byRequester.remove(requester);
            any = !byRequester.isEmpty();
            if (own != null) {
                return own;
            }
            return byRequester.isEmpty() ? null : byRequester.values().iterator().next();
        }
    }

    /** For an fsync: one report, every one taken, or null. */
    IOException takeAll() {
        if (!any) {
            return null;
        }
        synchronized (this) {
            IOException first = byRequester.isEmpty() ? null : byRequester.values().iterator().next();
            byRequester.clear();
            any = false;
            return first;
        }
    }
}
