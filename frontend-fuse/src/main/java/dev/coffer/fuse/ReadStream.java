package dev.coffer.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import jnr.ffi.Pointer;

/**
 * Reads one handle's file ahead of the kernel, on {@link #STREAMERS} threads of its own, into a ring
 * of {@link #SLOTS} slots of {@link #SLOT} bytes that follow each other from {@code base}; the FUSE
 * threads then copy the kernel's requests out of the ring.
 *
 * <p>Why: the kernel keeps only 128 KiB of read-ahead in flight for a FUSE mount (the bdi default,
 * which only root can raise), so a streaming read is one request at a time: while a FUSE thread
 * reads and decrypts a request, the other core waits. With the stream, two threads decrypt the next
 * slots on both cores while the FUSE threads answer the kernel from the ring (docs/fuse.md, "Streaming reads").
 *
 * <p>Consistency: each slot remembers {@link ContentChanges#current()} from before it was read; a
 * slot is served only if no content change in the mount ended since. Anything else (a slot that is
 * not there, stale, failed, or already reused) is a miss, and the caller reads the channel itself,
 * which also reports any error with the vault's own message.
 *
 * <p>Threads: any number of FUSE threads call {@link #serve}; streamer {@code i} fills slots
 * {@code i, i + STREAMERS, ...}, each once the readers are done with the slot it replaces;
 * {@link #close} stops them, waits for them and zeroes every slot (cleartext does not linger in the heap).
 */
final class ReadStream {
    static final int SLOT = 128 * 1024;
    /** 1 MiB per stream: 4 slots measured slightly slower, and 8 measured a little faster than 4. */
    static final int SLOTS = 8;
    /** Streamer threads per stream, each reading every STREAMERS-th slot: two use two cores for decryption. */
    static final int STREAMERS = 2;
    /** How long a FUSE thread spins for a slot being read before it waits (longer spins cost the streamers CPU). */
    private static final long SPIN_NANOS = 20_000;
    /**
     * A slot older than this is not served: a change made to the vault outside this mount cannot be
     * counted, so a reader that paused reads afresh. (The kernel's own attribute cache is also 1 s.)
     */
    private static final long MAX_AGE_NANOS = 1_000_000_000L;
    /** Requests of one file the kernel has in flight at once, at most (its read-ahead window and the one being read). */
    private static final int IN_FLIGHT = 2;
    /** A streamer whose ring stayed full this long (nobody reads on) ends; a later sequential read starts another. */
    private static final long IDLE_NANOS = 500_000_000L;

    private final FileChannel channel;
    private final ContentChanges changes;
    private final long base;
    private final byte[][] data = new byte[SLOTS][SLOT];
    /** Per ring position: the slot number it holds once read, or -1 while empty or being (re)filled. Written under this. */
    private final AtomicLongArray slotOf = new AtomicLongArray(SLOTS);
    /** Per ring position: the bytes it holds (less than SLOT at the end of the file). Guarded by this. */
    private final int[] length = new int[SLOTS];
    /** Per ring position: {@link ContentChanges#current()} before it was read. Guarded by this. */
    private final long[] version = new long[SLOTS];
    /** Per ring position: when it was read (System.nanoTime). Guarded by this. */
    private final long[] readAt = new long[SLOTS];
    /** Per ring position: whether a request has copied out the end of the slot it holds. Guarded by this. */
    private final boolean[] done = new boolean[SLOTS];
    /** Slots below this are no longer wanted; the streamers refill their ring positions. Written under this. */
    private volatile long consumed;
    /** The first slot that could not be read (I/O error, damaged unit, streamer ended early), or MAX. */
    private volatile long failedAt = Long.MAX_VALUE;
    /** The slot that holds the end of the file, once known. */
    private volatile long lastSlot = Long.MAX_VALUE;
    private volatile boolean stopped;
    private final Thread[] streamers = new Thread[STREAMERS];
    private final boolean[] streamerWaits = new boolean[STREAMERS];

    private ReadStream(FileChannel channel, ContentChanges changes, long base) {
        this.channel = channel;
        this.changes = changes;
        this.base = base;
        for (int r = 0; r < SLOTS; r++) {
            slotOf.set(r, -1);
        }
        for (int i = 0; i < STREAMERS; i++) {
            int first = i;
            streamers[i] = new Thread(() -> stream(first), "coffer-fuse-stream");
            streamers[i].setDaemon(true);
        }
    }

    /** Starts a stream of {@code channel} from {@code base}. */
    static ReadStream start(FileChannel channel, ContentChanges changes, long base) {
        ReadStream s = new ReadStream(channel, changes, base);
        for (Thread t : s.streamers) {
            t.start();
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
        long last = (offset + size - 1 - base) / SLOT;
        long fileEnd = lastSlot;
        if (last > fileEnd) {
            last = fileEnd; // the request runs past the end of the file: serve what is there
        }
        // A request beyond the ring's reach would wait for slots the streamers may not read yet.
        if (first > last || last >= consumed + SLOTS) {
            return -1;
        }
        for (long k = first; k <= last; k++) {
            if (!await(k)) {
                return -1;
            }
        }
        synchronized (this) {
            long now = changes.current();
            long oldest = System.nanoTime() - MAX_AGE_NANOS;
            for (long k = first; k <= last; k++) {
                int r = (int) (k % SLOTS);
                if (slotOf.get(r) != k || version[r] != now || readAt[r] - oldest < 0) {
                    return -1;
                }
            }
            int copied = 0;
            long pos = offset;
            long end = offset + size;
            for (long k = first; k <= last && pos < end; k++) {
                int r = (int) (k % SLOTS);
                long slotStart = base + k * SLOT;
                int from = (int) (pos - slotStart);
                int n = (int) Math.min(end - pos, length[r] - from);
                if (n <= 0) {
                    break; // the end of the file
                }
                buf.put(copied, data[r], from, n);
                copied += n;
                pos += n;
                if (from + n == length[r]) {
                    done[r] = true;
                }
            }
            // Requests can finish out of order (the kernel sends a few at once): a slot is free for
            // reuse once it and every slot before it have been copied out, or once it lies more than
            // IN_FLIGHT slots behind this request (the kernel found those pages cached and skipped them).
            long freed = consumed;
            while (freed < first - IN_FLIGHT
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
            return copied;
        }
    }

    /** Waits until slot {@code k} has been read; false if it never will be (failed, stopped, past the end). */
    private boolean await(long k) {
        int r = (int) (k % SLOTS);
        long spinUntil = 0;
        int spins = 0;
        long held;
        while ((held = slotOf.get(r)) != k) {
            if (held > k || stopped || failedAt <= k || lastSlot < k) {
                return false; // reused for a later slot (served to another thread meanwhile), or never coming
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
                    if (slotOf.get(r) < k && !stopped && failedAt > k && lastSlot >= k) {
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
        try {
            for (; !stopped; k += STREAMERS) {
                int r = (int) (k % SLOTS);
                if (!claim(k, r, first)) {
                    break;
                }
                long v = changes.current();
                long at = System.nanoTime();
                ByteBuffer bb = ByteBuffer.wrap(data[r]);
                long pos = base + k * SLOT;
                while (bb.hasRemaining()) {
                    int n = channel.read(bb, pos + bb.position());
                    if (n < 0) {
                        break;
                    }
                }
                int len = bb.position();
                if (len < SLOT) {
                    lastSlot = Math.min(lastSlot, k);
                }
                synchronized (this) {
                    length[r] = len;
                    version[r] = v;
                    readAt[r] = at;
                    slotOf.set(r, k);
                    notifyAll();
                }
                if (len < SLOT) {
                    reachedEnd = true;
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            // The FUSE thread that wants this slot reads it itself and reports the failure properly.
        } finally {
            if (!reachedEnd) {
                fail(k); // failed, or ended early (idle, closed): nothing more will come from this streamer
            }
        }
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
                if (k < consumed + SLOTS) {
                    slotOf.set(r, -1);
                    done[r] = false;
                    streamerWaits[streamer] = false;
                    return true;
                }
                streamerWaits[streamer] = true;
            }
            if (stopped || lastSlot < k) {
                return false;
            }
            long now = System.nanoTime();
            if (idleSince == 0) {
                idleSince = now;
            } else if (now - idleSince > IDLE_NANOS) {
                return false;
            }
            LockSupport.parkNanos(this, IDLE_NANOS);
        }
    }

    /** Whether the ring holds the bytes at {@code position}, read and not yet replaced (tests wait for it). */
    boolean holds(long position) {
        if (position < base) {
            return false;
        }
        long k = (position - base) / SLOT;
        return slotOf.get((int) (k % SLOTS)) == k;
    }

    /** Whether every slot holds only zeros (tests check {@link #close}). */
    synchronized boolean ringZeroed() {
        for (byte[] d : data) {
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

    /** Stops the streamers, waits for them and zeroes the ring. */
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
        synchronized (this) {
            for (byte[] d : data) {
                Arrays.fill(d, (byte) 0);
            }
            for (int r = 0; r < SLOTS; r++) {
                slotOf.set(r, -1);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
