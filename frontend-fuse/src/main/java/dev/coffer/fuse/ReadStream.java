package dev.coffer.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import jnr.ffi.Pointer;

/**
 * Reads one handle's file ahead of the kernel, on {@link #STREAMERS} threads of its own, into a ring
 * of {@link #SLOTS} slots of {@link #SLOT} bytes that follow each other from {@code base}; the FUSE
 * threads then copy the kernel's requests out of the ring. A slot's array is made when the slot is
 * first filled, so a stream over a short file holds only what it used.
 *
 * <p>Why: the kernel keeps only 128 KiB of read-ahead in flight for a FUSE mount (the bdi default,
 * which only root can raise), so a streaming read is one request at a time: while a FUSE thread
 * reads and decrypts a request, the other core waits. With the stream, two threads decrypt the next
 * slots on both cores while the FUSE threads answer the kernel from the ring (docs/fuse.md, "Streaming reads").
 *
 * <p>Consistency: each slot remembers {@link ContentChanges#stable()} from before it was read; a
 * slot is served only if that was a stable count (no change was running) and no change has begun
 * since, and if it is younger than the {@link StreamTiming}'s age limit. Anything else (a slot that is not there,
 * stale, failed, or already reused) is a miss, and the caller reads the channel itself, which also
 * reports any error with the vault's own message.
 *
 * <p>A stream ends (its ring zeroed, {@code onFinish} run once) when it is closed, when the request
 * that reaches the end of the file has been served, or when its streamers stop without reaching the
 * end (nobody read on for the {@link StreamTiming}'s idle limit, or a read failed). A streamer that
 * found the end waits, like an idle one, for the reader to come and take it.
 *
 * <p>Over 400 lines because the ring's protocol (claim, fill, serve, free, finish) is one piece whose
 * rules only make sense read together; the timing and the change count are classes of their own.
 *
 * <p>Threads: any number of FUSE threads call {@link #serve}; streamer {@code i} fills slots
 * {@code i, i + STREAMERS, ...}, each once the readers are done with the slot it replaces;
 * {@link #close} stops them, waits for them and zeroes every slot (cleartext does not linger in the heap).
 */
final class ReadStream {
    static final int SLOT = 128 * 1024;
    /**
     * 4 MiB per stream at most. A deeper ring lets the streamers work in longer runs beside the FUSE
     * threads: in five interleaved batches, 32 slots read a fresh mount's 1 GiB 1-8% faster than 8
     * (median), a warm one 5-6% faster in three batches and within 3.5% either way in two (docs/fuse.md,
     * "Ring depth"); 8 were a little faster than 4. A multiple of STREAMERS: each ring position has one streamer.
     */
    static final int SLOTS = 32;
    /** Streamer threads per stream, each reading every STREAMERS-th slot: two use two cores for decryption. */
    static final int STREAMERS = 2;
    /** How long a FUSE thread spins for a slot being read before it waits (longer spins cost the streamers CPU). */
    private static final long SPIN_NANOS = 20_000;
    /** Requests of one file the kernel has in flight at once, at most (its read-ahead window and the one being read). */
    private static final int IN_FLIGHT = 2;

    private final FileChannel channel;
    private final ContentChanges changes;
    private final long base;
    private final Runnable onFinish;
    private final StreamTiming timing;
    /** Per ring position: its slot's bytes, made by the streamer that first fills it (null until then). */
    private final byte[][] data = new byte[SLOTS][];
    /** Per ring position: the slot number it holds once read, or -1 while empty or being (re)filled. Written under this. */
    private final AtomicLongArray slotOf = new AtomicLongArray(SLOTS);
    /** Per ring position: the bytes it holds (less than SLOT at the end of the file). Guarded by this. */
    private final int[] length = new int[SLOTS];
    /** Per ring position: {@link ContentChanges#stable()} before it was read (-1: never serve). Guarded by this. */
    private final long[] version = new long[SLOTS];
    /** Per ring position: when its read began (System.nanoTime). Guarded by this. */
    private final long[] readAt = new long[SLOTS];
    /** Per ring position: whether a request has copied out the end of the slot it holds. Guarded by this. */
    private final boolean[] done = new boolean[SLOTS];
    /**
     * Per ring position: requests waiting in {@link #serve} for the slot it is to hold. Such a slot
     * is wanted, so it is never freed for lying behind a later request (see advanceConsumed).
     */
    private final AtomicIntegerArray awaiting = new AtomicIntegerArray(SLOTS);
    /**
     * The furthest slot a served request started at. Guarded by this. Slots more than IN_FLIGHT
     * behind it are freed once nobody waits for them, also when the last waiter leaves after it.
     */
    private long furthest;
    /** Slots below this are no longer wanted; the streamers refill their ring positions. Written under this. */
    private volatile long consumed;
    /** The first slot that could not be read (I/O error, damaged unit, streamer ended early), or MAX. */
    private volatile long failedAt = Long.MAX_VALUE;
    /** The slot that holds the end of the file, once known. */
    private volatile long lastSlot = Long.MAX_VALUE;
    /** Set by close() or the stream's end: no streamer claims another slot, nothing more is served. */
    private volatile boolean stopped;
    /** Whether the ring has been zeroed and onFinish run. Guarded by this. */
    private boolean finished;
    private final Thread[] streamers = new Thread[STREAMERS];
    private final boolean[] streamerWaits = new boolean[STREAMERS];
    private final AtomicInteger running = new AtomicInteger();

    private ReadStream(FileChannel channel, ContentChanges changes, long base, Runnable onFinish, StreamTiming timing) {
        this.channel = channel;
        this.changes = changes;
        this.base = base;
        this.onFinish = onFinish;
        this.timing = timing;
        for (int r = 0; r < SLOTS; r++) {
            slotOf.set(r, -1);
        }
        for (int i = 0; i < STREAMERS; i++) {
            int first = i;
            streamers[i] = new Thread(() -> stream(first), "coffer-fuse-stream");
            streamers[i].setDaemon(true);
        }
    }

    /**
     * Starts a stream of {@code channel} from {@code base}; {@code onFinish} runs once when it ends. If
     * this throws (no thread), {@code onFinish} has run and nothing is left running. The slots' arrays
     * come later, on the streamers: one they cannot make (no memory) ends the stream like a failed read.
     */
    static ReadStream start(FileChannel channel, ContentChanges changes, long base, Runnable onFinish,
            StreamTiming timing) {
        ReadStream s;
        try {
            s = new ReadStream(channel, changes, base, onFinish, timing);
        } catch (RuntimeException | Error e) {
            onFinish.run();
            throw e;
        }
        try {
            for (Thread t : s.streamers) {
                s.running.incrementAndGet();
                t.start();
            }
        } catch (RuntimeException | Error e) {
            s.close();
            throw e;
        }
        return s;
    }

    /**
     * Copies {@code [offset, offset + size)} into {@code buf} if the ring has it, waiting for a slot that
     * is being read; returns the bytes copied (0 at or past the end of the file), or -1 for a miss.
     */
    int serve(Pointer buf, long size, long offset) {
        if (offset < base || size <= 0 || stopped) {
            return -1;
        }
        long first = (offset - base) / SLOT;
        long last = Math.min((offset + size - 1 - base) / SLOT, lastSlot);
        // A request beyond the ring's reach would wait for slots the streamers may not read yet.
        if (first > last || last >= consumed + SLOTS) {
            return -1;
        }
        for (long k = first; k <= last; k++) {
            awaiting.incrementAndGet((int) (k % SLOTS));
        }
        try {
            return awaitAndCopy(buf, size, offset, first, last);
        } finally {
            for (long k = first; k <= last; k++) {
                awaiting.decrementAndGet((int) (k % SLOTS));
            }
            freeWhatThisRequestKept();
        }
    }

    /**
     * A slot this request waited for was kept while later requests were served; with the request
     * gone it may be freed now. Nothing else would look again: requests beyond the ring's reach miss
     * before they get here, so the ring would stay stuck and every later request miss.
     */
    private void freeWhatThisRequestKept() {
        boolean reachedEnd;
        synchronized (this) {
            if (finished) {
                return;
            }
            advanceConsumed(furthest);
            reachedEnd = allServed();
        }
        if (reachedEnd) {
            finish();
        }
    }

    /** The rest of {@link #serve}, once the request counts as awaiting slots {@code first} to {@code wanted}. */
    private int awaitAndCopy(Pointer buf, long size, long offset, long first, long wanted) {
        for (long k = first; k <= wanted; k++) {
            if (!await(k)) {
                return -1;
            }
        }
        boolean reachedEnd;
        int copied = 0;
        synchronized (this) {
            if (finished) {
                return -1;
            }
            long last = Math.min(wanted, lastSlot); // a slot read meanwhile may have ended the file earlier
            long now = changes.current();
            long oldest = System.nanoTime() - timing.maxAgeNanos();
            for (long k = first; k <= last; k++) {
                int r = (int) (k % SLOTS);
                if (slotOf.get(r) != k || version[r] != now || readAt[r] - oldest < 0) {
                    return -1;
                }
            }
            long pos = offset;
            long end = offset + size;
            for (long k = first; k <= last && pos < end; k++) {
                int r = (int) (k % SLOTS);
                int from = (int) (pos - (base + k * SLOT));
                int n = (int) Math.min(end - pos, length[r] - from);
                if (n > 0) {
                    buf.put(copied, data[r], from, n);
                    copied += n;
                    pos += n;
                }
                if (from + Math.max(n, 0) >= length[r]) {
                    done[r] = true;
                }
                if (length[r] < SLOT) {
                    break; // the end of the file
                }
            }
            furthest = Math.max(furthest, first);
            advanceConsumed(furthest);
            reachedEnd = allServed();
        }
        if (reachedEnd) {
            finish(); // the reader has the end of the file: nothing in the ring is wanted any more
        }
        return copied;
    }

    /**
     * Frees ring positions for the streamers: a slot is free once it and every slot before it have
     * been copied out (requests can finish out of order: the kernel sends a few at once), or once it
     * lies more than IN_FLIGHT slots behind the request at {@code first} (the kernel found those pages
     * cached and skipped them) and no request waits for it: with more requests in flight than the
     * kernel's read-ahead sends (threads of one program reading the same handle), a slot whose
     * streamer fell behind would otherwise be freed under the request waiting for it, which then
     * missed, and so on for each of that streamer's slots. Under this.
     */
    private void advanceConsumed(long first) {
        long freed = consumed;
        while (freed < first - IN_FLIGHT && awaiting.get((int) (freed % SLOTS)) == 0
                || slotOf.get((int) (freed % SLOTS)) == freed && done[(int) (freed % SLOTS)]) {
            freed++;
        }
        if (freed > consumed) {
            consumed = freed;
            for (int i = 0; i < STREAMERS; i++) {
                if (streamerWaits[i]) {
                    LockSupport.unpark(streamers[i]);
                }
            }
        }
    }

    /** Whether every slot up to the end of the file has been copied out. Under this. */
    private boolean allServed() {
        return lastSlot != Long.MAX_VALUE && consumed > lastSlot;
    }

    /** Waits until slot {@code k} has been read; false if it never will be (freed, failed, stopped, past the end). */
    private boolean await(long k) {
        int r = (int) (k % SLOTS);
        long spinUntil = 0;
        int spins = 0;
        long held;
        while ((held = slotOf.get(r)) != k) {
            // A freed slot is never read again: its position goes to a later slot (which may fail, or never come).
            if (held > k || k < consumed || stopped || failedAt <= k || lastSlot < k) {
                return false;
            }
            if ((++spins & 63) != 0) {
                Thread.onSpinWait();
                continue;
            }
            long now = System.nanoTime();
            if (spinUntil == 0) {
                spinUntil = now + SPIN_NANOS;
            } else if (now > spinUntil) {
                synchronized (this) {
                    if (slotOf.get(r) < k && k >= consumed && !stopped && failedAt > k && lastSlot >= k) {
                        try {
                            wait(10);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return false;
                        }
                    }
                }
            }
        }
        return true;
    }

    private void stream(int first) {
        long k = first;
        boolean reachedEnd = false;
        byte[] filling = null; // the slot being read, until it is handed to the readers
        try {
            for (; !stopped; k += STREAMERS) {
                int r = (int) (k % SLOTS);
                if (!claim(k, r, first)) {
                    break;
                }
                long v = changes.stable();
                long at = System.nanoTime();
                byte[] slot = data[r];
                if (slot == null) {
                    slot = new byte[SLOT];
                    data[r] = slot; // published to the FUSE threads by the synchronized block below
                }
                filling = slot;
                ByteBuffer bb = ByteBuffer.wrap(slot);
                long pos = base + k * SLOT;
                while (bb.hasRemaining()) {
                    int n = channel.read(bb, pos + bb.position());
                    if (n < 0) {
                        break;
                    }
                }
                int len = bb.position();
                boolean ended;
                synchronized (this) {
                    if (finished) {
                        data[r] = null; // read while the stream ended: dropped here, zeroed below
                        return;
                    }
                    if (len < SLOT) {
                        lastSlot = Math.min(lastSlot, k);
                    }
                    length[r] = len;
                    version[r] = v;
                    readAt[r] = at;
                    done[r] = len == 0; // nothing in it to copy out
                    slotOf.set(r, k);
                    filling = null;
                    notifyAll();
                    advanceConsumed(consumed); // an empty last slot may be all the reader was still owed
                    ended = allServed();
                }
                if (ended) {
                    finish();
                }
                if (len < SLOT) {
                    reachedEnd = true;
                    awaitReader(first);
                    return;
                }
            }
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            // The FUSE thread that wants this slot reads it itself and reports the failure properly
            // (or, out of memory for a slot, reads directly as if there were no stream).
        } finally {
            synchronized (this) {
                if (filling != null && finished) {
                    // A slot read (or failing) while the stream ended: finish() may not have seen its array.
                    Arrays.fill(filling, (byte) 0);
                }
            }
            if (!reachedEnd) {
                fail(k); // failed, or ended early (idle, closed): nothing more will come from this streamer
            }
            if (running.decrementAndGet() == 0) {
                finish(); // every streamer stopped (the one at the end only once the reader took it or went away)
            }
        }
    }

    /**
     * Called by the streamer that found the end of the file: waits while the reader keeps taking
     * slots, and ends the stream once it has taken them all, stopped for the idle limit, or the
     * stream was closed, so that an ended stream never keeps its ring for a reader who went away.
     */
    private void awaitReader(int streamer) {
        long seen = consumed;
        long idleSince = System.nanoTime();
        while (!stopped && !allServed()) {
            synchronized (this) {
                streamerWaits[streamer] = true;
            }
            LockSupport.parkNanos(this, timing.idleNanos());
            long now = System.nanoTime();
            if (consumed != seen) {
                seen = consumed;
                idleSince = now;
            } else if (now - idleSince > timing.idleNanos()) {
                break;
            }
        }
        finish();
    }

    private synchronized void fail(long k) {
        failedAt = Math.min(failedAt, k);
        notifyAll();
    }

    /** Takes ring position {@code r} for slot {@code k} once the readers are done with its old slot. */
    private boolean claim(long k, int r, int streamer) {
        long idleSince = 0;
        while (true) {
            synchronized (this) {
                if (stopped) {
                    return false;
                }
                if (k < consumed + SLOTS) {
                    slotOf.set(r, -1);
                    done[r] = false;
                    streamerWaits[streamer] = false;
                    return true;
                }
                streamerWaits[streamer] = true;
            }
            if (lastSlot < k) {
                return false;
            }
            long now = System.nanoTime();
            if (idleSince == 0) {
                idleSince = now;
            } else if (now - idleSince > timing.idleNanos()) {
                return false;
            }
            LockSupport.parkNanos(this, timing.idleNanos());
        }
    }

    /** Ends the stream once: nothing more is claimed or served, the ring is zeroed, onFinish runs. */
    private void finish() {
        synchronized (this) {
            stopped = true;
            notifyAll();
            if (finished) {
                return;
            }
            finished = true;
            for (int r = 0; r < SLOTS; r++) {
                slotOf.set(r, -1);
            }
            for (int r = 0; r < SLOTS; r++) {
                if (data[r] != null) {
                    Arrays.fill(data[r], (byte) 0);
                    data[r] = null; // a handle kept open after its stream ended holds no ring
                }
            }
        }
        for (Thread t : streamers) {
            LockSupport.unpark(t);
        }
        onFinish.run();
    }

    /** Whether the ring holds the bytes at {@code position}, read and not yet replaced (tests wait for it). */
    boolean holds(long position) {
        if (position < base) {
            return false;
        }
        long k = (position - base) / SLOT;
        return slotOf.get((int) (k % SLOTS)) == k;
    }

    /** The slot arrays made so far (tests: a short file's stream makes only the ones it fills). */
    synchronized List<byte[]> slotArrays() {
        List<byte[]> made = new ArrayList<>();
        for (byte[] d : data) {
            if (d != null) {
                made.add(d);
            }
        }
        return made;
    }

    /** Whether every slot array still in the ring holds only zeros (an ended stream has none left). */
    synchronized boolean ringZeroed() {
        for (byte[] d : data) {
            if (d == null) {
                continue;
            }
            for (byte b : d) {
                if (b != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether any streamer thread still runs. */
    boolean streaming() {
        for (Thread t : streamers) {
            if (t.isAlive()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Stops the streamers, waits for them (a streamer in the middle of a slot finishes it: a vault
     * channel must not be interrupted) and ends the stream. Idempotent.
     */
    void close() {
        synchronized (this) {
            stopped = true;
            notifyAll();
        }
        boolean interrupted = false;
        for (Thread t : streamers) {
            LockSupport.unpark(t);
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        finish();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
