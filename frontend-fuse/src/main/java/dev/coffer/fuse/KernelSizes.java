package dev.coffer.fuse;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The sizes each file's name was lately given to the kernel with (getattr and fgetattr answers), so
 * that an OPEN can tell that the kernel's size may not be the file's any more: a sync client replaced
 * the ciphertext behind the mount. The kernel reads an open file through its page cache up to the
 * size it holds, so without a word from the mount a program reading the synced, longer version got
 * its first bytes cut to the old size, and a shorter one could read with zeros after its end.
 *
 * <p>Every size a name was given within the kernel's cache time (the longer of its entry and
 * attribute timeouts, plus a margin: a shrunk file's size is refreshed only by a stat or a lookup)
 * is kept, not only the last: answers can reach the kernel in another order than they were noted
 * (it keeps the first of two overlapping ones), and a note is made before its answer is sent. So the
 * kernel holds one of the kept sizes, and an open is sure of it only if they all equal the file's.
 * Older sizes are swept out. A name without a note is one the kernel holds no recent size for,
 * unless a note was lost: when more than {@link #CAPACITY} names were noted within the cache time,
 * or a name without a note (a folder, whose files' names all change) was renamed through the mount;
 * for the cache time after either, a name without a note may be stale (but is not taken as shrunk,
 * which would keep every open off the page cache meanwhile). Changes through the mount: a write
 * keeps the largest size the kernel may hold ({@link #wrote}); an O_TRUNC open and a truncate leave
 * only the size the kernel sets or is answered; a folder's rename moves its files' notes.
 */
final class KernelSizes {
    /** Names noted at most (some 20 MiB of paths and records): ls -lR of a 36,000-file tree stays far below. */
    static final int CAPACITY = 100_000;
    /** Distinct sizes kept per name; a name given more within the cache time may be stale until it ends. */
    static final int SIZES = 4;
    /**
     * Notes at most that a folder's rename scans to move its files' notes (some 0.5 ms; 90,000 took
     * 4.8 ms in session 39's review); above, its files are only stale for the cache time.
     */
    static final int MOVED_SCAN_LIMIT = 10_000;
    private static final long SWEEP_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Beyond the kernel's cache time: the note is made a little before the answer reaches the kernel. */
    private static final long MARGIN_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** What the open of a name should tell the kernel. */
    enum Verdict {
        /** Every size the kernel may hold is the file's. */
        CURRENT,
        /** The kernel may hold another size: it must ask again. */
        STALE,
        /** As STALE, and the kernel may hold a larger size: its read-ahead of that size must not run. */
        SHRUNK
    }

    /**
     * Sizes given within the cache time and when each was last given; where more were given than
     * kept, until when that counts ({@code lostUntil}, 0 if never) and the largest size not kept.
     */
    private record Noted(long[] sizes, long[] at, long lostUntil, long lostMax) {}

    private final ConcurrentHashMap<String, Noted> notes = new ConcurrentHashMap<>();
    private final LongSupplier clock;
    private final int capacity;
    private volatile long keptNanos;
    /** Until this time ({@link #clock}) a name without a note may still be held by the kernel with a size. */
    private volatile long uncertainUntil;
    private final AtomicLong nextSweep;

    /** For a mount whose kernel keeps entries and attributes {@code cacheSeconds} at most. */
    KernelSizes(long cacheSeconds) {
        this(cacheSeconds, System::nanoTime, CAPACITY);
    }

    KernelSizes(long cacheSeconds, LongSupplier clock, int capacity) {
        this.clock = clock;
        this.capacity = capacity;
        this.keptNanos = TimeUnit.SECONDS.toNanos(cacheSeconds) + MARGIN_NANOS;
        long now = clock.getAsLong();
        this.uncertainUntil = now;
        this.nextSweep = new AtomicLong(now + SWEEP_EVERY_NANOS);
    }

    /** The kernel keeps entries and attributes {@code cacheSeconds} at most on this mount. */
    void cacheSeconds(long cacheSeconds) {
        keptNanos = TimeUnit.SECONDS.toNanos(cacheSeconds) + MARGIN_NANOS;
    }

    /** The kernel is given {@code size} for the file at {@code path}. */
    void noted(String path, long size) {
        long now = clock.getAsLong();
        notes.compute(path, (p, old) -> with(old, size, now));
        long due = nextSweep.get();
        if (now - due >= 0 && nextSweep.compareAndSet(due, now + SWEEP_EVERY_NANOS)) {
            notes.values().removeIf(n -> expired(n, now));
        }
        if (notes.mappingCount() > capacity) {
            uncertain(now);
            notes.clear(); // every note lost at once: simpler than choosing, and as safe
        }
    }

    /** {@code old} with {@code size} given at {@code now}; sizes older than the cache time dropped. */
    private Noted with(Noted old, long size, long now) {
        long[] sizes = new long[SIZES];
        long[] at = new long[SIZES];
        int n = 0;
        long lostUntil = 0;
        long lostMax = -1;
        if (old != null && old.lostUntil != 0 && now - old.lostUntil < 0) {
            lostUntil = old.lostUntil;
            lostMax = old.lostMax;
        }
        if (old != null) {
            for (int i = 0; i < old.sizes.length; i++) {
                if (old.sizes[i] != size && now - old.at[i] < keptNanos) {
                    if (n == SIZES - 1) {
                        // Too many to keep (a file growing while it is stat'ed): stale whatever the size
                        // for the cache time, and shrunk where the largest one not kept is larger.
                        lostUntil = now + keptNanos;
                        lostMax = Math.max(lostMax, old.sizes[i]);
                        continue;
                    }
                    sizes[n] = old.sizes[i];
                    at[n++] = old.at[i];
                }
            }
        }
        sizes[n] = size;
        at[n++] = now;
        return new Noted(java.util.Arrays.copyOf(sizes, n), java.util.Arrays.copyOf(at, n), lostUntil, lostMax);
    }

    private boolean expired(Noted n, long now) {
        for (long t : n.at) {
            if (now - t < keptNanos) {
                return false;
            }
        }
        return n.lostUntil == 0 || now - n.lostUntil >= 0;
    }

    /** What an OPEN of {@code path}, which got a file of {@code size}, should tell the kernel. */
    Verdict verdict(String path, long size) {
        long now = clock.getAsLong();
        Noted n = notes.get(path);
        boolean any = false;
        boolean stale = false;
        boolean larger = false;
        if (n != null) {
            for (int i = 0; i < n.sizes.length; i++) {
                if (now - n.at[i] < keptNanos) {
                    any = true;
                    stale |= n.sizes[i] != size;
                    larger |= n.sizes[i] > size;
                }
            }
            if (n.lostUntil != 0 && now - n.lostUntil < 0) {
                stale = true;
                larger |= n.lostMax > size;
            }
        }
        if (!any && !stale && now - uncertainUntil < 0) {
            // A lost note: the kernel may hold another size. Not taken as shrunk, which would keep every
            // open of the mount off the page cache for the cache time after a folder's rename.
            return Verdict.STALE;
        }
        return larger ? Verdict.SHRUNK : stale ? Verdict.STALE : Verdict.CURRENT;
    }

    /**
     * After a rename through the mount: the kernel's entry, with its sizes, now has the name {@code
     * to}; a folder's files' sizes move with it where few names are noted.
     */
    void moved(String from, String to) {
        Noted n = notes.remove(from);
        if (n != null) {
            notes.put(to, n);
            return;
        }
        notes.remove(to);
        // A folder, most likely: the kernel keeps its files' nodes and sizes under the new names. An
        // answer noted under an old name while this runs is lost, so names without a note may be stale.
        uncertain(clock.getAsLong());
        if (notes.mappingCount() > MOVED_SCAN_LIMIT) {
            return; // a scan of every note per folder rename would cost milliseconds: stale is enough
        }
        String fromPrefix = from + "/";
        for (String key : notes.keySet()) {
            if (key.startsWith(fromPrefix)) {
                Noted moved = notes.remove(key);
                if (moved != null) {
                    notes.put(to + key.substring(from.length()), moved);
                }
            }
        }
    }

    /**
     * A write through the mount left the file at {@code sizeAfter}: the kernel's size is now the
     * larger of the size it held (one of the kept ones, or one lost) and the write's end, and it
     * discards answers sent before; so one size is kept, the largest of those. It is at least the
     * kernel's: an open that finds the file shorter is taken as shrunk, one that finds it equal as
     * current (a kernel size below it is refreshed at the first read past it: its own write marked it stale).
     */
    void wrote(String path, long sizeAfter) {
        long now = clock.getAsLong();
        notes.compute(path, (p, old) -> {
            long max = sizeAfter;
            if (old != null) {
                for (int i = 0; i < old.sizes.length; i++) {
                    if (now - old.at[i] < keptNanos) {
                        max = Math.max(max, old.sizes[i]);
                    }
                }
                if (old.lostUntil != 0 && now - old.lostUntil < 0) {
                    max = Math.max(max, old.lostMax);
                }
            }
            return new Noted(new long[] {max}, new long[] {now}, 0, -1);
        });
    }

    /** The kernel set the name's size itself, discarding older answers (an O_TRUNC open: 0). */
    void setByKernel(String path, long size) {
        notes.put(path, new Noted(new long[] {size}, new long[] {clock.getAsLong()}, 0, -1));
    }

    /** The name is gone (unlinked through the mount). */
    void forget(String path) {
        notes.remove(path);
    }

    private void uncertain(long now) {
        uncertainUntil = now + keptNanos;
    }
}
