package dev.coffer.core.content;

import java.io.IOException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Splits the crypto of one large batch (128 KiB of whole units) between the calling thread and one
 * other core, and finishes both halves before returning: the ciphertext I/O stays synchronous, so
 * errors and durability are exactly as without it. Whoever claims the other half first runs it, so
 * when every core is busy the caller simply does both halves itself (never slower than serial).
 * Only used with more than one CPU.
 */
final class ParallelCrypto {
    /** Smaller batches are not worth the hand-off (a few microseconds). */
    static final int MIN_UNITS = 16;
    private static final boolean AVAILABLE = Runtime.getRuntime().availableProcessors() > 1;

    private ParallelCrypto() {}

    static boolean available() {
        return AVAILABLE;
    }

    /** A piece of crypto work that may fail like a damaged file does. */
    @FunctionalInterface
    interface Task {
        void run() throws IOException;
    }

    /** Runs {@code here} on this thread and {@code other} on whichever thread claims it first; rethrows the first failure. */
    static void runBoth(Task other, Task here) throws IOException {
        Half half = new Half(other);
        ForkJoinPool.commonPool().execute(half::runIfUnclaimed);
        IOException failure = null;
        try {
            here.run();
        } catch (IOException e) {
            failure = e;
        } finally {
            half.runIfUnclaimed(); // not started yet: do it here
            half.awaitDone();      // started elsewhere: it writes into buffers this thread reuses next
        }
        if (failure != null) {
            throw failure;
        }
        half.rethrow();
    }

    /** The other half: run once, by the first thread to claim it. */
    private static final class Half {
        private final Task task;
        private final AtomicBoolean claimed = new AtomicBoolean();
        private boolean done;
        private Throwable failure;

        Half(Task task) {
            this.task = task;
        }

        void runIfUnclaimed() {
            if (!claimed.compareAndSet(false, true)) {
                return;
            }
            Throwable t = null;
            try {
                task.run();
            } catch (IOException | RuntimeException | Error e) {
                t = e;
            }
            synchronized (this) {
                failure = t;
                done = true;
                notifyAll();
            }
        }

        synchronized void awaitDone() {
            boolean interrupted = false;
            while (!done) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true; // the half writes into shared buffers: it must be waited for
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        synchronized void rethrow() throws IOException {
            if (failure instanceof IOException e) {
                throw e;
            }
            if (failure instanceof RuntimeException e) {
                throw e;
            }
            if (failure instanceof Error e) {
                throw e;
            }
        }
    }
}
