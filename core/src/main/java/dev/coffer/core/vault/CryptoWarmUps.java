package dev.coffer.core.vault;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;

/**
 * Decides whether an unlock starts a {@link CryptoWarmUp}, and for how many units: the JIT's compiled
 * code lives as long as the JVM, so each content mode has one budget for the whole JVM, and a second
 * unlock in the same JVM (the app unlocking another vault) only warms up what the first one left
 * undone. At most one warm-up runs at a time.
 *
 * <p>The budget was measured with {@code -XX:+PrintCompilation} (docs/performance-history.md, "JIT
 * warm-up at unlock"): C2 has compiled the per-unit encrypt and decrypt paths after about 15,000 units
 * (encrypted plus decrypted); the budget is twice that.
 *
 * <p>Not responsible for running a warm-up ({@link CryptoWarmUp}) nor for its work ({@link CryptoExercise}).
 */
final class CryptoWarmUps {
    /** Units encrypted plus units decrypted, per content mode and JVM: 64 MiB each way. */
    static final long UNIT_BUDGET = Long.getLong("coffer.warmup.units", 2 * 16_384);
    /** A slow or busy machine stops warming up after this, instead of holding a core for longer. */
    static final Duration TIME_LIMIT = Duration.ofSeconds(3);

    /** The warm-ups of this JVM, with the real exercise. */
    static final CryptoWarmUps PER_JVM = new CryptoWarmUps(
            combo -> new CryptoExercise(combo == CipherCombo.SIV_XTSHMAC), UNIT_BUDGET, TIME_LIMIT);
    /** Never warms up: for operations that open a vault without serving it (passphrase change). */
    static final CryptoWarmUps NONE = new CryptoWarmUps(combo -> {
        throw new IllegalStateException("never started");
    }, 0, Duration.ZERO);

    private final ThreadFactory threads;
    private final Function<CipherCombo, ? extends CryptoWarmUp.Exercise> exercises;
    private final long unitBudget;
    private final Duration timeLimit;
    private final Map<CipherCombo, Long> spent = new EnumMap<>(CipherCombo.class);
    private CryptoWarmUp running = CryptoWarmUp.notStarted();

    CryptoWarmUps(Function<CipherCombo, ? extends CryptoWarmUp.Exercise> exercises, long unitBudget, Duration timeLimit) {
        this(Thread::new, exercises, unitBudget, timeLimit);
    }

    /** @param threads makes the warm-up threads (tests: one that fails, as the JVM may when out of threads) */
    CryptoWarmUps(ThreadFactory threads, Function<CipherCombo, ? extends CryptoWarmUp.Exercise> exercises, long unitBudget,
            Duration timeLimit) {
        this.threads = threads;
        this.exercises = exercises;
        this.unitBudget = unitBudget;
        this.timeLimit = timeLimit;
    }

    /**
     * Starts a warm-up of {@code combo}'s content crypto, unless this JVM has done its budget for that
     * mode, a warm-up is running already, or no thread could be started for it; then returns one that
     * was not started. Never throws: an unlock goes on without a warm-up.
     */
    synchronized CryptoWarmUp start(CipherCombo combo) {
        long left = unitBudget - spent.getOrDefault(combo, 0L);
        if (left <= 0 || !running.ended()) {
            return CryptoWarmUp.notStarted();
        }
        running = CryptoWarmUp.start(threads, () -> exercises.apply(combo), left, timeLimit, units -> spend(combo, units));
        return running;
    }

    /** The warm-up started last, or one that was never started. */
    synchronized CryptoWarmUp latest() {
        return running;
    }

    private synchronized void spend(CipherCombo combo, long units) {
        spent.merge(combo, units, Long::sum);
    }
}
