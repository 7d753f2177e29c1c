package dev.coffer.fuse;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The channels behind FUSE file handles: {@code open} and {@code create} add one (with whether it
 * was opened for writing, which flush asks) and hand its number to the kernel, {@code read},
 * {@code write}, {@code fsync}... find it again, {@code release} closes it. Handles are never reused,
 * so a late request on a released handle fails with EBADF instead of reaching another file.
 * Thread-safe without a global lock.
 *
 * <p>A handle also keeps a write request's report that an earlier write was lost, for the same
 * requester's next write or close, other closes and the next fsync to report again
 * ({@link #noteWriteFailure}): the kernel splits a large write(2) into
 * requests and, when one after the first fails, returns the bytes before it and drops the error.
 * When that error is the vault's report that an earlier request of the same write(2), already
 * answered, was lost (it ran behind and found the disk full), the program, told all was well, would
 * go on past a gap.
 *
 * <p>Not responsible for opening channels (the callers choose the options).
 */
final class OpenFileTable {
    private final Map<Long, Handle> handles = new ConcurrentHashMap<>();
    private final AtomicLong next = new AtomicLong(1);

    /** {@code writesAt}: the name a writable handle was opened by ({@link KernelSizes}), else null. */
    private record Handle(FileChannel channel, boolean writable, KeptWriteFailures kept, String writesAt) {
        Handle(FileChannel channel, boolean writable, String writesAt) {
            this(channel, writable, new KeptWriteFailures(), writesAt);
        }
    }

    /** Registers {@code channel}, opened for writing or not; returns its handle. */
    long add(FileChannel channel, boolean writable) {
        return add(channel, writable, null);
    }

    /** As {@link #add(FileChannel, boolean)}, keeping {@code writesAt}, the name a writable handle was opened by. */
    long add(FileChannel channel, boolean writable, String writesAt) {
        long fh = next.getAndIncrement();
        handles.put(fh, new Handle(channel, writable, writable ? writesAt : null));
        return fh;
    }

    /**
     * A rename through the mount: writable handles at {@code from}, or under it (a folder), write at
     * the new name, so that their writes and truncates change that name's notes ({@link KernelSizes}).
     * Before session 39 they did not follow: an open, write, rename and ftruncate cycle left the new
     * name's larger size noted, and its next open went direct.
     */
    void renamed(String from, String to) {
        String under = from + "/";
        handles.replaceAll((fh, h) -> {
            String at = h.writesAt();
            if (at == null || !(at.equals(from) || at.startsWith(under))) {
                return h;
            }
            return new Handle(h.channel(), h.writable(), h.kept(), to + at.substring(from.length()));
        });
    }

    /** The name writable handle {@code fh} was opened by, followed through renames; null if none is kept. */
    String writesAt(long fh) {
        Handle h = handles.get(fh);
        return h == null ? null : h.writesAt();
    }

    /** The channel of handle {@code fh}; ClosedChannelException (EBADF) for an unknown handle. */
    FileChannel get(long fh) throws ClosedChannelException {
        return handle(fh).channel();
    }

    /** Whether handle {@code fh} was opened for writing; ClosedChannelException (EBADF) for an unknown handle. */
    boolean writable(long fh) throws ClosedChannelException {
        return handle(fh).writable();
    }

    /**
     * Keeps {@code failure}, which a write request of {@code requester} on handle {@code fh} threw,
     * for that requester's next write or own flush, other requesters' flushes and the next fsync
     * ({@link KeptWriteFailures}). Unknown handles are ignored.
     */
    void noteWriteFailure(long fh, IOException failure, long requester) {
        Handle h = handles.get(fh);
        if (h != null) {
            h.kept().keep(requester, failure);
        }
    }

    /** The kept failures of handle {@code fh}; ClosedChannelException (EBADF) for an unknown handle. */
    KeptWriteFailures keptWriteFailures(long fh) throws ClosedChannelException {
        return handle(fh).kept();
    }

    private Handle handle(long fh) throws ClosedChannelException {
        Handle h = handles.get(fh);
        if (h == null) {
            throw new ClosedChannelException();
        }
        return h;
    }

    /** Removes and closes handle {@code fh}; unknown handles are ignored. */
    void release(long fh) throws IOException {
        Handle h = handles.remove(fh);
        if (h != null) {
            h.channel().close();
        }
    }

    int size() {
        return handles.size();
    }

    /** Closes every channel still open (the mount is going away); the first failure is rethrown. */
    void closeAll() throws IOException {
        List<Long> open = new ArrayList<>(handles.keySet());
        IOException first = null;
        for (long fh : open) {
            try {
                release(fh);
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
