package dev.coffer.fuse;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the content changes made through one mount (writes, truncates, {@code O_TRUNC} opens,
 * creates, renames), so that a {@link ReadStream} never serves bytes it read before or during a change.
 * A change calls {@link #begin} before it touches the file and {@link #end} once it has taken effect;
 * {@link #stable} is the count while no change runs, and -1 while one does. A slot read at a stable
 * count is served only while {@link #current} is still that count.
 *
 * <p>Mount-wide rather than per file, because a file's identity is not stable across renames and the
 * count is all that is needed; the price is that a change to any file makes every stream read afresh.
 */
final class ContentChanges {
    /** Low 32 bits: changes running now; the rest: changes begun so far (each begin moves it). */
    private final AtomicLong state = new AtomicLong();
    private static final long RUNNING = 0xFFFF_FFFFL;
    private static final long BEGUN = 1L << 32;

    /** Called before a change touches the file. */
    void begin() {
        state.addAndGet(BEGUN + 1);
    }

    /** Called once the change has taken effect (or failed). */
    void end() {
        state.decrementAndGet();
    }

    /** The count now, to compare with the count a slot was read at. */
    long current() {
        return state.get() >>> 32;
    }

    /** The count if no change is running now, else -1: what a slot about to be read records. */
    long stable() {
        long s = state.get();
        return (s & RUNNING) == 0 ? s >>> 32 : -1;
    }
}
