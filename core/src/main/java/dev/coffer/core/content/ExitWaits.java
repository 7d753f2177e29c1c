package dev.coffer.core.content;

import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * The JVM exit's wait for work that daemon threads do in the background (a write running behind,
 * queued appends): they would just stop when the JVM halts after its shutdown hooks. Also tells
 * whether that exit has begun ({@link #exiting}): from then on no work may be handed to a daemon
 * thread, because a hook whose wait has already ended would not wait for it, and the caller would
 * be told of a success that never reaches the disk.
 *
 * <p>The order that closes the gap between the two: work registers in its running set first and
 * then reads {@link #exiting}; a hook sets {@link #exiting} first and then looks at its set. So
 * either the work sees the exit (and runs on its caller's thread) or the hook sees the work (and
 * waits for it).
 */
final class ExitWaits {
    private ExitWaits() {}

    /** Set when the first of these hooks starts, or when one could no longer be added (the exit had begun). */
    private static volatile boolean exiting;
    /** The hooks added, in order (for tests: a hook of their own that must run after these). */
    private static final List<Thread> HOOKS = new CopyOnWriteArrayList<>();

    /**
     * Adds a shutdown hook named {@code name} that marks the exit begun and then runs {@code wait}.
     * If the exit has begun already, marks it instead: work started from now on runs on its
     * caller's thread, so there is nothing to wait for.
     */
    static void addHook(String name, Runnable wait) {
        Thread hook = new Thread(() -> {
            beginExit();
            wait.run();
        }, name);
        try {
            Runtime.getRuntime().addShutdownHook(hook);
            HOOKS.add(hook);
        } catch (IllegalStateException shuttingDown) {
            beginExit();
        }
    }

    /**
     * Whether the JVM's exit has begun: work must then run on its caller's thread. One volatile
     * read; call it after registering the work in the set its hook looks at (see the class comment).
     */
    static boolean exiting() {
        return exiting;
    }

    /** The hooks added so far (for tests). */
    static List<Thread> hooks() {
        return List.copyOf(HOOKS);
    }

    private static void beginExit() {
        exiting = true;
        // The set is read after this: no read of it may move before the write (not all of a
        // ConcurrentHashMap's reads are volatile ones, which alone would order themselves after it).
        VarHandle.fullFence();
    }

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
