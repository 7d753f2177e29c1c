package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.coffer.core.nio.RecordingFileSystem;
import dev.coffer.core.crypto.MasterKey;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The JIT warm-up that an unlock runs while scrypt derives the key: it touches no file, ends by itself
 * after its budget, never outlives a failed unlock, and never fails an unlock (not even when no
 * thread can be started for it). No assertion bounds a wall time from above: what a busy machine
 * slows down is observed through latches and counts instead.
 */
class CryptoWarmUpTest {
    private static final Duration LONG = Duration.ofSeconds(60);
    private static final int FILE_UNITS = 2 * CryptoExercise.UNITS_PER_FILE;

    @TempDir
    Path temp;

    /** The real exercise, counting how many were made and closed. */
    private static final class CountedExercises implements Function<CipherCombo, CryptoWarmUp.Exercise> {
        final AtomicInteger made = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();

        @Override
        public CryptoWarmUp.Exercise apply(CipherCombo combo) {
            made.incrementAndGet();
            CryptoExercise real = new CryptoExercise(combo == CipherCombo.SIV_XTSHMAC);
            return new CryptoWarmUp.Exercise() {
                @Override
                public int run(BooleanSupplier stop) {
                    return real.run(stop);
                }

                @Override
                public void close() {
                    real.close();
                    closed.incrementAndGet();
                }
            };
        }
    }

    private Path vault(Path dir) throws IOException {
        VaultAccess.create(dir, "secret".toCharArray(), VaultRoundTripTest.FAST).close();
        return dir;
    }

    private static VaultOperations operations(Kdf kdf, CryptoWarmUps warmUps) {
        return new VaultOperations(kdf, new SecureRandom(), warmUps);
    }

    @Test
    void theExerciseEncryptsAndDecryptsEveryUnitInBothModesAndStopsWhenAsked() {
        for (boolean authenticated : new boolean[] {true, false}) {
            CryptoExercise exercise = new CryptoExercise(authenticated);
            assertThat(exercise.run(() -> false)).isEqualTo(FILE_UNITS);
            assertThat(exercise.run(() -> true)).isZero();
            AtomicInteger checks = new AtomicInteger();
            assertThat(exercise.run(() -> checks.incrementAndGet() > 10)).isEqualTo(10);
            exercise.close();
            // The throwaway key is destroyed: nothing can be encrypted with it any more.
            assertThatThrownBy(() -> exercise.run(() -> false)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aWarmUpDoesItsBudgetThenEndsItsThreadAndDestroysItsKey() {
        CountedExercises exercises = new CountedExercises();
        CryptoWarmUps warmUps = new CryptoWarmUps(exercises, 3 * FILE_UNITS, LONG);
        CryptoWarmUp warmUp = warmUps.start(CipherCombo.SIV_XTS);
        assertThat(warmUp.started()).isTrue();
        assertThat(warmUp.awaitEnd(LONG)).isTrue();
        assertThat(warmUp.ended()).isTrue();
        assertThat(warmUp.unitsDone()).isEqualTo(3 * FILE_UNITS);
        assertThat(exercises.made).hasValue(1);
        assertThat(exercises.closed).hasValue(1);
    }

    @Test
    void theBudgetIsPerJvmAndContentModeAndOneWarmUpRunsAtATime() {
        CountedExercises exercises = new CountedExercises();
        CryptoWarmUps warmUps = new CryptoWarmUps(exercises, FILE_UNITS, LONG);
        assertThat(warmUps.start(CipherCombo.SIV_XTSHMAC).awaitEnd(LONG)).isTrue();
        assertThat(warmUps.start(CipherCombo.SIV_XTSHMAC).started()).as("budget spent").isFalse();
        CryptoWarmUp other = warmUps.start(CipherCombo.SIV_XTS);
        assertThat(other.started()).as("the other mode has its own budget").isTrue();
        other.awaitEnd(LONG);

        CryptoWarmUps endless = new CryptoWarmUps(exercises, Long.MAX_VALUE, LONG);
        CryptoWarmUp first = endless.start(CipherCombo.SIV_XTSHMAC);
        assertThat(endless.start(CipherCombo.SIV_XTS).started()).as("one at a time").isFalse();
        first.stop();
        assertThat(first.ended()).isTrue();
        assertThat(endless.start(CipherCombo.SIV_XTSHMAC).started()).as("a stopped warm-up leaves budget").isTrue();
        endless.latest().stop();
    }

    @Test
    void theWarmUpTouchesNoFileWhileScryptRunsNorAfterTheUnlock() throws Exception {
        RecordingFileSystem fs = new RecordingFileSystem();
        Path vault = vault(fs.wrap(temp.resolve("vault")));
        CountedExercises exercises = new CountedExercises();
        CryptoWarmUps warmUps = new CryptoWarmUps(exercises, 8 * FILE_UNITS, LONG);
        AtomicReference<List<String>> callsDuringScrypt = new AtomicReference<>();
        Kdf waitsForTheWarmUp = (passphrase, salt, params) -> {
            List<String> before = fs.calls();
            CryptoWarmUp warmUp = warmUps.latest();
            long deadline = System.nanoTime() + LONG.toNanos();
            while (warmUp.unitsDone() < 2 * FILE_UNITS && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(fs.calls()).as("file accesses while the warm-up ran during scrypt").isEqualTo(before);
            callsDuringScrypt.set(before);
            return Kdf.SCRYPT.kek(passphrase, salt, params);
        };

        MasterKey key;
        try (UnlockedVault v = operations(waitsForTheWarmUp, warmUps).unlock(vault, "secret".getBytes())) {
            key = MasterKey.of(v.masterKey().copyBytes());
        }
        List<String> afterUnlock = fs.calls();
        CryptoWarmUp warmUp = warmUps.latest();
        assertThat(warmUp.awaitEnd(LONG)).isTrue();

        assertThat(callsDuringScrypt.get()).as("the root files were read before scrypt")
                .anyMatch(c -> c.startsWith("open ") && c.endsWith("masterkey.coffer"));
        assertThat(warmUp.unitsDone()).isEqualTo(8 * FILE_UNITS);
        assertThat(fs.calls()).as("file accesses while the warm-up ran on after the unlock").isEqualTo(afterUnlock);
        try (UnlockedVault again = operations(Kdf.SCRYPT, CryptoWarmUps.NONE).unlock(vault, "secret".getBytes())) {
            assertThat(again.masterKey().sameKeyAs(key)).as("the vault's key is unchanged").isTrue();
        }
        key.destroy();
    }

    @Test
    void aFailingWarmUpNeverFailsTheUnlock() throws Exception {
        Path vault = vault(temp.resolve("vault"));
        List<Function<CipherCombo, CryptoWarmUp.Exercise>> failures = List.of(
                combo -> {
                    throw new IllegalStateException("cannot make the exercise");
                },
                combo -> new FailingExercise(new IllegalStateException("fails while running")),
                combo -> new FailingExercise(new OutOfMemoryError("simulated")));
        for (Function<CipherCombo, CryptoWarmUp.Exercise> failing : failures) {
            CryptoWarmUps warmUps = new CryptoWarmUps(failing, Long.MAX_VALUE, LONG);
            try (UnlockedVault v = operations(Kdf.SCRYPT, warmUps).unlock(vault, "secret".getBytes())) {
                assertThat(v.config().cipherCombo()).isEqualTo(CipherCombo.SIV_XTSHMAC);
            }
            assertThat(warmUps.latest().started()).isTrue();
            assertThat(warmUps.latest().awaitEnd(LONG)).as("a failed warm-up ends its thread").isTrue();
        }
    }

    @Test
    void aWrongPassphraseThrowsWithoutWaitingForTheWarmUpsRoundAndStopsItBeforeThrowing() throws Exception {
        Path vault = vault(temp.resolve("vault"));
        BlockingExercise blocking = new BlockingExercise();
        CryptoWarmUps endless = new CryptoWarmUps(combo -> blocking, Long.MAX_VALUE, LONG);
        Kdf afterTheRoundBegan = (passphrase, salt, params) -> {
            try {
                assertThat(blocking.roundBegan.await(LONG.toSeconds(), TimeUnit.SECONDS)).as("the warm-up's round began").isTrue();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return Kdf.SCRYPT.kek(passphrase, salt, params);
        };

        assertThatThrownBy(() -> operations(afterTheRoundBegan, endless).unlock(vault, "wrong".getBytes()))
                .isInstanceOf(InvalidPassphraseException.class);
        // Deterministic, where a wall-clock bound would fail on a busy machine: the round under way is
        // held until released below (or for LONG), so an unlock that waited for it could not be here yet.
        boolean roundEndedBeforeTheThrow = blocking.roundEnded.get();
        boolean stopAskedBeforeTheThrow = blocking.stop.get().getAsBoolean();
        CryptoWarmUp warmUp = endless.latest();
        boolean threadRanAtTheThrow = !warmUp.ended();
        blocking.release.countDown();

        assertThat(roundEndedBeforeTheThrow).as("the unlock waited for the warm-up's round to end").isFalse();
        assertThat(threadRanAtTheThrow).as("the warm-up thread outlived the wait for it").isTrue();
        assertThat(stopAskedBeforeTheThrow).as("the warm-up was asked to stop before the unlock threw").isTrue();
        assertThat(warmUp.awaitEnd(LONG)).as("the warm-up ends").isTrue();
        assertThat(blocking.rounds).as("no round after the stop").hasValue(1);
        assertThat(blocking.closed).as("its exercise was closed").hasValue(1);
    }

    @Test
    void aWrongPassphraseStopsTheRealWarmUpWithinTheRoundUnderWay() throws Exception {
        Path vault = vault(temp.resolve("vault"));
        CountedExercises exercises = new CountedExercises();
        CryptoWarmUps endless = new CryptoWarmUps(exercises, Long.MAX_VALUE, LONG);
        Kdf afterAFile = (passphrase, salt, params) -> {
            // Lets the warm-up get going, so that stopping it is what this test sees.
            long deadline = System.nanoTime() + LONG.toNanos();
            while (endless.latest().unitsDone() < FILE_UNITS && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            return Kdf.SCRYPT.kek(passphrase, salt, params);
        };
        assertThatThrownBy(() -> operations(afterAFile, endless).unlock(vault, "wrong".getBytes()))
                .isInstanceOf(InvalidPassphraseException.class);
        CryptoWarmUp warmUp = endless.latest();
        long unitsAtThrow = warmUp.unitsDone();

        assertThat(unitsAtThrow).as("the warm-up ran during scrypt").isGreaterThanOrEqualTo(FILE_UNITS);
        assertThat(warmUp.awaitEnd(LONG)).as("the warm-up ends").isTrue();
        assertThat(warmUp.unitsDone()).as("at most the round under way when it was stopped")
                .isLessThanOrEqualTo(unitsAtThrow + FILE_UNITS);
        assertThat(exercises.closed).as("its throwaway key was destroyed").hasValue(1);
    }

    @Test
    void thePacingRules() {
        long round = Duration.ofMillis(10).toNanos();
        assertThat(CryptoWarmUp.pauseAfterRound(round, round, false)).as("unlocking: three times the round")
                .isEqualTo(3 * round);
        assertThat(CryptoWarmUp.pauseAfterRound(round, 0, false)).isEqualTo(3 * round);
        assertThat(CryptoWarmUp.pauseAfterRound(round, -1, false)).isEqualTo(3 * round);
        assertThat(CryptoWarmUp.pauseAfterRound(round, round, true)).as("unlocked, a whole core: no pause").isZero();
        assertThat(CryptoWarmUp.pauseAfterRound(round, round * 8 / 10, true)).as("unlocked, 80%: no pause").isZero();
        assertThat(CryptoWarmUp.pauseAfterRound(round, round * 8 / 10 - 1, true)).as("unlocked, under 80%: as long")
                .isEqualTo(round);
        assertThat(CryptoWarmUp.pauseAfterRound(round, 0, true)).isEqualTo(round);
        assertThat(CryptoWarmUp.pauseAfterRound(round, -1, true)).as("CPU time not measured: never contended").isZero();
    }

    @Test
    void whileTheUnlockRunsEveryRoundIsFollowedByAPauseThreeTimesAsLong() {
        // A lower bound only: a busy machine makes rounds and pauses longer, never shorter.
        int rounds = 4;
        long roundNanos = Duration.ofMillis(25).toNanos();
        Function<CipherCombo, CryptoWarmUp.Exercise> spinning = combo -> oneUnitRounds(() -> {
            long end = System.nanoTime() + roundNanos;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        });
        CryptoWarmUps warmUps = new CryptoWarmUps(spinning, rounds, LONG);
        long start = System.nanoTime();
        CryptoWarmUp warmUp = warmUps.start(CipherCombo.SIV_XTSHMAC);
        assertThat(warmUp.awaitEnd(LONG)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isGreaterThanOrEqualTo(Duration.ofNanos((1 + CryptoWarmUp.PAUSE_WHILE_UNLOCKING) * rounds * roundNanos));
        assertThat(warmUp.unitsDone()).isEqualTo(rounds);
    }

    @Test
    void afterTheUnlockARoundThatGotLittleCpuIsFollowedByAPauseAsLong() {
        // Sleeping rounds take wall time but no CPU, like rounds that wait for a busy core. A lower
        // bound only; the first round waits until the unlock is reported, so every pause is one after it.
        int rounds = 5;
        long roundMillis = 40;
        CountDownLatch unlockReported = new CountDownLatch(1);
        Function<CipherCombo, CryptoWarmUp.Exercise> sleeping = combo -> oneUnitRounds(() -> {
            try {
                unlockReported.await(LONG.toSeconds(), TimeUnit.SECONDS);
                Thread.sleep(roundMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        CryptoWarmUps warmUps = new CryptoWarmUps(sleeping, rounds, LONG);
        long start = System.nanoTime();
        CryptoWarmUp warmUp = warmUps.start(CipherCombo.SIV_XTSHMAC);
        warmUp.unlocked();
        unlockReported.countDown();
        assertThat(warmUp.awaitEnd(LONG)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(2 * rounds * roundMillis));
        assertThat(warmUp.unitsDone()).isEqualTo(rounds);
    }

    @Test
    void anUnlockGoesOnWithoutAWarmUpWhoseThreadCannotBeStarted() throws Exception {
        Path vault = vault(temp.resolve("vault"));
        List<ThreadFactory> failures = List.of(
                task -> {
                    throw new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource limits reached");
                },
                task -> {
                    throw new SecurityException("thread creation not allowed");
                },
                task -> {
                    throw new RejectedExecutionException("no thread for the warm-up");
                },
                task -> new Thread(task) {
                    @Override
                    public void start() {
                        throw new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource limits reached");
                    }
                });
        ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(CryptoWarmUp.class);
        Level levelBefore = log.getLevel();
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        log.addAppender(logged);
        log.setLevel(Level.DEBUG);
        log.setAdditive(false);
        try {
            for (ThreadFactory failing : failures) {
                AtomicInteger asked = new AtomicInteger();
                ThreadFactory failsOnce = task -> asked.getAndIncrement() == 0 ? failing.newThread(task) : new Thread(task);
                CountedExercises exercises = new CountedExercises();
                CryptoWarmUps warmUps = new CryptoWarmUps(failsOnce, exercises, FILE_UNITS, LONG);
                try (UnlockedVault v = operations(Kdf.SCRYPT, warmUps).unlock(vault, "secret".getBytes())) {
                    assertThat(v.config().cipherCombo()).isEqualTo(CipherCombo.SIV_XTSHMAC);
                }
                assertThat(warmUps.latest().started()).as("no warm-up").isFalse();
                assertThat(exercises.made).as("no exercise made").hasValue(0);

                try (UnlockedVault v = operations(Kdf.SCRYPT, warmUps).unlock(vault, "secret".getBytes())) {
                    assertThat(v.config().cipherCombo()).isEqualTo(CipherCombo.SIV_XTSHMAC);
                }
                CryptoWarmUp next = warmUps.latest();
                assertThat(next.started()).as("the next unlock warms up").isTrue();
                assertThat(next.awaitEnd(LONG)).isTrue();
                assertThat(next.unitsDone()).as("nothing of the budget was spent by the failure").isEqualTo(FILE_UNITS);
            }
        } finally {
            log.detachAppender(logged);
            log.setLevel(levelBefore);
            log.setAdditive(true);
        }
        assertThat(logged.list).as("one note per failure").hasSize(failures.size())
                .allSatisfy(e -> assertThat(e.getLevel()).as("logged above debug").isEqualTo(Level.DEBUG));
    }

    @Test
    void theWarmUpRunsTheVaultsContentModeReadBeforeTheSignatureCanBeChecked() throws Exception {
        Path vault = temp.resolve("xts");
        VaultAccess.create(vault, "secret".toCharArray(), new VaultCreationOptions(CipherCombo.SIV_XTS, 1 << 14, 220)).close();
        List<CipherCombo> warmed = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountedExercises real = new CountedExercises();
        CryptoWarmUps warmUps = new CryptoWarmUps(combo -> {
            warmed.add(combo);
            return real.apply(combo);
        }, FILE_UNITS, LONG);
        operations(Kdf.SCRYPT, warmUps).unlock(vault, "secret".getBytes()).close();
        assertThat(warmUps.latest().awaitEnd(LONG)).isTrue();
        assertThat(warmed).containsExactly(CipherCombo.SIV_XTS);

        String token = java.nio.file.Files.readString(vault.resolve("vault.coffer")).trim();
        String[] parts = token.split("\\.");
        byte[] refusedClaims = (parts[0] + ".e30." + parts[2]).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(VaultConfigJwt.parse(refusedClaims).unverifiedCipherCombo())
                .as("claims that would be refused: the default mode").isEqualTo(CipherCombo.SIV_XTSHMAC);
    }

    @Test
    void onlyUnlockWarmsUpNotThePassphraseChange() throws Exception {
        Path vault = vault(temp.resolve("vault"));
        CountedExercises exercises = new CountedExercises();
        CryptoWarmUps warmUps = new CryptoWarmUps(exercises, FILE_UNITS, LONG);
        VaultOperations ops = operations(Kdf.SCRYPT, warmUps);
        ops.recoveryKey(vault, "secret".getBytes());
        assertThat(warmUps.latest().started()).isFalse();
        ops.unlock(vault, "secret".getBytes()).close();
        assertThat(warmUps.latest().started()).isTrue();
        assertThat(warmUps.latest().awaitEnd(LONG)).isTrue();
    }

    /** An exercise whose first round is held until released (or for LONG), recording what it saw. */
    /** An exercise whose every round runs {@code round} and counts as one unit; nothing to close. */
    private static CryptoWarmUp.Exercise oneUnitRounds(Runnable round) {
        return new CryptoWarmUp.Exercise() {
            @Override
            public int run(BooleanSupplier stop) {
                round.run();
                return 1;
            }

            @Override
            public void close() {
                // nothing to release
            }
        };
    }

    private static final class BlockingExercise implements CryptoWarmUp.Exercise {
        final CountDownLatch roundBegan = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicReference<BooleanSupplier> stop = new AtomicReference<>();
        final AtomicBoolean roundEnded = new AtomicBoolean();
        final AtomicInteger rounds = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();

        @Override
        public int run(BooleanSupplier stopSignal) {
            rounds.incrementAndGet();
            stop.set(stopSignal);
            roundBegan.countDown();
            try {
                release.await(LONG.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            roundEnded.set(true);
            return 1;
        }

        @Override
        public void close() {
            closed.incrementAndGet();
        }
    }

    /** An exercise whose every round throws. */
    private static final class FailingExercise implements CryptoWarmUp.Exercise {
        private final Throwable failure;

        FailingExercise(Throwable failure) {
            this.failure = failure;
        }

        @Override
        public int run(BooleanSupplier stop) {
            if (failure instanceof Error e) {
                throw e;
            }
            throw (RuntimeException) failure;
        }

        @Override
        public void close() {
            // nothing to release
        }
    }
}
