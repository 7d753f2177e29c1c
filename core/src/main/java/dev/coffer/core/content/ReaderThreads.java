package dev.coffer.core.content;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one open file's read-ahead jobs on reader threads: at most {@code maxThreads} at a time, each
 * looping over the file's queue in order and, once it is empty, looking for the next job for
 * {@link #IDLE_SPIN_NANOS} before it ends. A sequential reader hands out a job every batch or two,
 * so a thread still looking takes it at once, where waking a parked thread costs tens of
 * microseconds in a VM (measured: with a thread per job from a pool, 30% of the jobs had not started
 * when their reader came for them, and reads got slower instead of faster).
 *
 * <p>Not responsible for what a job does, nor for waiting for it: a job must be safe to run late or
 * never (its owner claims back jobs no thread has started). Thread-safe.
 */
final class ReaderThreads {
    /** How long a thread that ran out of jobs looks for the next before it ends. */
    private static final long IDLE_SPIN_NANOS = 50_000;
    /** Threads shared by every open file: a new loop goes to an idle one, or starts one. */
    private static final Executor POOL = DaemonThreads.pool("coffer-reader-");

    private final int maxThreads;
    private final ConcurrentLinkedQueue<Runnable> queued = new ConcurrentLinkedQueue<>();
    /** Threads in this file's loop, and how many of them are looking for a job. */
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger looking = new AtomicInteger();

    ReaderThreads(int maxThreads) {
        this.maxThreads = maxThreads;
    }

    /** Queues a job; starts a thread for it unless enough are running or looking. */
    void submit(Runnable job) {
        queued.add(job);
        if (queued.size() > looking.get()) {
            for (int n; (n = running.get()) < maxThreads; ) {
                if (running.compareAndSet(n, n + 1)) {
                    try {
                        POOL.execute(this::loop);
                    } catch (Throwable noThread) { // e.g. no native thread left: the readers do the jobs themselves
                        running.decrementAndGet();
                    }
                    return;
                }
            }
        }
    }

    /** Forgets the queued jobs (their owner has claimed them back). */
    void clear() {
        queued.clear();
    }

    private void loop() {
        boolean counted = true;
        try {
            while (true) {
                Runnable job = queued.poll();
                if (job != null) {
                    job.run();
                    continue;
                }
                looking.incrementAndGet();
                try {
                    long until = System.nanoTime() + IDLE_SPIN_NANOS;
                    while (queued.isEmpty() && System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                } finally {
                    looking.decrementAndGet();
                }
                if (!queued.isEmpty()) {
                    continue;
                }
                running.decrementAndGet();
                counted = false;
                // A job queued after the last look but before the decrement would wait for its reader: look once more.
                if (queued.isEmpty() || !rejoin()) {
                    return;
                }
                counted = true;
            }
        } finally {
            if (counted) {
                running.decrementAndGet(); // an Error out of a job: the count must not stay up
            }
        }
    }

    private boolean rejoin() {
        for (int n; (n = running.get()) < maxThreads; ) {
            if (running.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }
}
