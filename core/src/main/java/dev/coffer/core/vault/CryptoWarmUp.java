package dev.coffer.core.vault;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JIT warm-up of the content crypto: a daemon thread that runs an {@link Exercise} round after
 * round until it has done its budget of units, its time limit has passed, or {@link #stop()} is
 * called, whichever comes first. It holds back while the unlock runs: until {@link #unlocked()},
 * it pauses {@link #PAUSE_WHILE_UNLOCKING} times as long as each round took, so that it and the
 * compilations it causes leave room for scrypt and the JIT's other work. After that it only pauses
 * after a round in which it got less than {@link #CONTENDED_SHARE} of a core (anything else on the
 * machine wanted the CPU too), for as long as that round took.
 *
 * <p>It ends quietly: a failure of the exercise only ends the thread early, and is never thrown,
 * logged or shown, since a warm-up is an optimisation and not worth an unlock. Likewise a thread that
 * cannot be made or started (no native thread left, a security manager, a refusing factory) means no
 * warm-up, noted at debug level only, and never an unlock that fails.
 *
 * <p>Not responsible for deciding whether to warm up or how much ({@link CryptoWarmUps}), nor for the
 * work itself ({@link CryptoExercise}).
 */
final class CryptoWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(CryptoWarmUp.class);
    static final String THREAD_NAME = "coffer-crypto-warm-up";
    /**
     * How long {@link #stop()} waits for the thread to end, so that a failed unlock is not delayed by
     * more. The thread checks for a stop between units, microseconds apart once compiled; a thread
     * still making its exercise (the JVM loading the crypto classes: up to ~100 ms, more on a busy
     * machine) outlives this wait, and ends as soon as the exercise is made, before any unit.
     */
    static final Duration STOP_WAIT = Duration.ofMillis(50);
    /** A round that got less CPU time than this share of its wall time was competing for a core. */
    static final double CONTENDED_SHARE = 0.8;
    /** While the unlock runs, each round is followed by a pause this many times as long: a quarter of a core. */
    static final int PAUSE_WHILE_UNLOCKING = 3;

    /** The work a warm-up repeats, on the warm-up thread; closed there when the warm-up ends. */
    interface Exercise extends AutoCloseable {
        /** Does one round of work, returning early once {@code stop} says so; returns the units done. */
        int run(BooleanSupplier stop);

        @Override
        void close();
    }

    /** A warm-up that was never started: nothing to stop, already ended. */
    private static final CryptoWarmUp NOT_STARTED = new CryptoWarmUp(null);

    private final Thread thread;
    private final AtomicLong unitsDone = new AtomicLong();
    /** Guards the two flags' changes, on which a pause waits. */
    private final Object signal = new Object();
    private volatile boolean stopRequested;
    private volatile boolean unlocked;

    private CryptoWarmUp(Thread thread) {
        this.thread = thread;
    }

    static CryptoWarmUp notStarted() {
        return NOT_STARTED;
    }

    /**
     * Starts a warm-up thread, made by {@code threads}, that makes its exercise from {@code exercise}
     * (on that thread, so the caller pays only for starting a thread), runs it, and reports the units
     * it did to {@code spent} when it ends. If the thread cannot be made or started, returns a warm-up
     * that was not started (nothing spent): the caller goes on without one.
     */
    static CryptoWarmUp start(ThreadFactory threads, Supplier<? extends Exercise> exercise, long unitBudget,
            Duration timeLimit, LongConsumer spent) {
        CryptoWarmUp[] self = new CryptoWarmUp[1];
        try {
            Thread thread = threads.newThread(() -> self[0].run(exercise, unitBudget, timeLimit, spent));
            thread.setName(THREAD_NAME);
            thread.setDaemon(true);
            // Errors the run below does not catch (out of memory) end the thread without a trace either.
            thread.setUncaughtExceptionHandler((t, e) -> { });
            self[0] = new CryptoWarmUp(thread);
            thread.start();
            return self[0];
        } catch (RuntimeException | OutOfMemoryError e) {
            // OutOfMemoryError: "unable to create native thread". The unlock needs no warm-up.
            LOG.debug("Crypto warm-up not started: {}", e.toString());
            return NOT_STARTED;
        }
    }

    private void run(Supplier<? extends Exercise> exercise, long unitBudget, Duration timeLimit, LongConsumer spent) {
        long deadline = System.nanoTime() + timeLimit.toNanos();
        BooleanSupplier stop = () -> stopRequested || System.nanoTime() - deadline > 0;
        try (Exercise work = exercise.get()) {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            while (unitsDone.get() < unitBudget && !stop.getAsBoolean()) {
                long wallStart = System.nanoTime();
                long cpuStart = threads.getCurrentThreadCpuTime();
                unitsDone.addAndGet(work.run(stop));
                long wall = System.nanoTime() - wallStart;
                // cpuStart is -1 where thread CPU time is not measured.
                long cpu = cpuStart < 0 ? -1 : threads.getCurrentThreadCpuTime() - cpuStart;
                boolean unlockedAtRoundEnd = unlocked;
                long pause = pauseAfterRound(wall, cpu, unlockedAtRoundEnd);
                if (pause > 0) {
                    pause(pause, !unlockedAtRoundEnd);
                }
            }
        } catch (RuntimeException e) {
            // Ignored on purpose (see the class comment): the warm-up just ends.
        } catch (InterruptedException e) {
            // Nobody interrupts this thread but the JVM's end; end quietly with it.
        } finally {
            spent.accept(unitsDone.get());
        }
    }

    /**
     * The pause after a round that took {@code wallNanos} and {@code cpuNanos} of this thread's CPU time
     * (negative: not measured, never taken for contention): {@link #PAUSE_WHILE_UNLOCKING} times the
     * round while the unlock runs; after it, as long as the round if that got less than
     * {@link #CONTENDED_SHARE} of a core, else none.
     */
    static long pauseAfterRound(long wallNanos, long cpuNanos, boolean unlocked) {
        if (!unlocked) {
            return PAUSE_WHILE_UNLOCKING * wallNanos;
        }
        boolean contended = cpuNanos >= 0 && cpuNanos < CONTENDED_SHARE * wallNanos;
        return contended ? wallNanos : 0;
    }

    /** Waits {@code nanos}, or less if a stop is asked for or (if {@code untilUnlocked}) the unlock succeeds. */
    private void pause(long nanos, boolean untilUnlocked) throws InterruptedException {
        long end = System.nanoTime() + nanos;
        synchronized (signal) {
            long left = nanos;
            while (left > 0 && !stopRequested && !(untilUnlocked && unlocked)) {
                TimeUnit.NANOSECONDS.timedWait(signal, left);
                left = end - System.nanoTime();
            }
        }
    }

    /** The unlock succeeded: the warm-up stops holding back for it and runs on to its end. */
    void unlocked() {
        synchronized (signal) {
            unlocked = true;
            signal.notifyAll();
        }
    }

    /**
     * Asks the warm-up to end and waits up to {@link #STOP_WAIT} for its thread to end. For an unlock
     * that failed: a warm-up never goes on after a wrong passphrase.
     */
    void stop() {
        synchronized (signal) {
            stopRequested = true;
            signal.notifyAll();
        }
        awaitEnd(STOP_WAIT);
    }

    /** Waits up to {@code timeout} for the warm-up to end; true if it has ended. */
    boolean awaitEnd(Duration timeout) {
        if (thread == null) {
            return true;
        }
        try {
            thread.join(Math.max(1, timeout.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    /** True if the warm-up has ended (or never started); does not wait. */
    boolean ended() {
        return thread == null || !thread.isAlive();
    }

    /** The units encrypted and decrypted so far. */
    long unitsDone() {
        return unitsDone.get();
    }

    /** True if this warm-up started a thread (false when its budget was spent or another one runs). */
    boolean started() {
        return thread != null;
    }
}
