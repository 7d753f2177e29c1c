package dev.coffer.fuse;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The size each file's name was last given to the kernel with (a getattr's or fgetattr's answer), so
 * that an OPEN can tell that the kernel's cached size is not the file's any more: a sync client
 * replaced the ciphertext behind the mount within the kernel's attribute cache time. The kernel reads
 * an open file through its page cache only up to the size it holds, so without a word from the mount
 * a program reading the synced, longer version got its first bytes cut to the old size, silently.
 *
 * <p>A note counts for the kernel's cache time after it was made (the kernel's copy has expired by
 * then, and it asks again); older ones are swept out. A name without a note is one the kernel holds
 * no size for, unless a note was lost: when more than {@link #CAPACITY} names were given sizes
 * within the cache time, or a name without a note (a folder, whose files' names all change) was
 * renamed through the mount. For the cache time after either, a name without a note counts as
 * possibly stale. Writes through the mount need nothing here: the kernel marks the size it changed
 * by a write as stale itself and asks at the next read past it.
 */
final class KernelSizes {
    /** Names noted at most (some 15 MiB of paths and records): ls -lR of a 36,000-file tree stays far below. */
    static final int CAPACITY = 100_000;
    private static final long SWEEP_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Beyond the kernel's cache time: the note is made a little before the answer reaches the kernel. */
    private static final long MARGIN_NANOS = TimeUnit.SECONDS.toNanos(1);

    private record Noted(long size, long at) {}

    private final ConcurrentHashMap<String, Noted> notes = new ConcurrentHashMap<>();
    private final LongSupplier clock;
    private final int capacity;
    private volatile long keptNanos;
    /** Until this time ({@link #clock}) a name without a note may still be held by the kernel with a size. */
    private volatile long uncertainUntil;
    private final AtomicLong nextSweep;

    /** For a mount whose kernel keeps attributes {@code cacheSeconds}. */
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

    /** The kernel keeps attributes {@code cacheSeconds} on this mount (its {@code attr_timeout}). */
    void cacheSeconds(long cacheSeconds) {
        keptNanos = TimeUnit.SECONDS.toNanos(cacheSeconds) + MARGIN_NANOS;
    }

    /** The kernel was given {@code size} for the file at {@code path}. */
    void noted(String path, long size) {
        long now = clock.getAsLong();
        notes.put(path, new Noted(size, now));
        long due = nextSweep.get();
        if (now - due >= 0 && nextSweep.compareAndSet(due, now + SWEEP_EVERY_NANOS)) {
            notes.values().removeIf(n -> now - n.at >= keptNanos);
        }
        if (notes.mappingCount() > capacity) {
            uncertain(now);
            notes.clear(); // every note lost at once: simpler than choosing, and as safe
        }
    }

    /**
     * Whether the kernel may hold another size for {@code path} than {@code size}, the size of the
     * file an OPEN of it just got.
     */
    boolean mayBeStale(String path, long size) {
        long now = clock.getAsLong();
        Noted n = notes.get(path);
        if (n != null && now - n.at < keptNanos) {
            return n.size != size;
        }
        return now - uncertainUntil < 0;
    }

    /** After a rename through the mount: the kernel's entry, with its size, now has the name {@code to}. */
    void moved(String from, String to) {
        Noted n = notes.remove(from);
        if (n != null) {
            notes.put(to, n);
        } else {
            notes.remove(to);
            uncertain(clock.getAsLong()); // a folder, most likely: the kernel keeps its files' sizes under new names
        }
    }

    /** The name is gone (unlinked through the mount). */
    void forget(String path) {
        notes.remove(path);
    }

    private void uncertain(long now) {
        uncertainUntil = now + keptNanos;
    }
}
