package dev.coffer.core.content;

import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * The JVM exit's wait for work that daemon threads do in the background (a write running behind,
 * queued appends): they would just stop when the JVM halts after its shutdown hooks.
 */
final class ExitWaits {
    private ExitWaits() {}

    /**
     * Polls until no item of {@code running} is {@code stillRunning}, or until {@code deadline}
     * ({@link System#nanoTime}), for all of them together. Looks at the whole set again after every
     * pause, so work that starts meanwhile is waited for too: one pass would miss it where the set's
     * iterator does not show it (a {@code ConcurrentHashMap} key set's shows an addition only in the
     * part it has not passed yet).
     */
    static <T> void await(Set<T> running, Predicate<T> stillRunning, long deadline) {
        while (anyRunning(running, stillRunning) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(100_000);
        }
    }

    private static <T> boolean anyRunning(Set<T> running, Predicate<T> stillRunning) {
        for (T item : running) {
            if (stillRunning.test(item)) {
                return true;
            }
        }
        return false;
    }
}
