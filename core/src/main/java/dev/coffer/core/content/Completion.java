package dev.coffer.core.content;

import java.util.concurrent.locks.LockSupport;

/**
 * The end of a piece of work that one background thread does and at most one other thread waits
 * for (a write running behind, a read-ahead): {@link #signal} publishes everything the worker wrote
 * before it (a volatile write), {@link #await} spins briefly first (a job about to end saves a
 * wake-up) and then parks. Interrupts do not end the wait; they are restored afterwards.
 *
 * <p>Not responsible for the work or its outcome; not for several waiters (one parked thread is woken).
 */
final class Completion {
    private final long spinNanos;
    private volatile boolean done;
    private volatile Thread waiter;

    /** @param spinNanos how long {@link #await} spins before it parks */
    Completion(long spinNanos) {
        this.spinNanos = spinNanos;
    }

    /** Marks the work done and wakes the waiter, if one parked. */
    void signal() {
        done = true;
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    boolean isDone() {
        return done;
    }

    /** Waits until {@link #signal} ran; called by one thread at a time. */
    void await() {
        if (done) {
            return;
        }
        long spinUntil = System.nanoTime() + spinNanos;
        while (!done && System.nanoTime() < spinUntil) {
            Thread.onSpinWait();
        }
        waiter = Thread.currentThread();
        boolean interrupted = false;
        while (!done) {
            LockSupport.park(this);
            // park returns at once while the flag is set: clear it, and set it again at the end.
            interrupted |= Thread.interrupted();
        }
        waiter = null;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
