package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FileChannel.truncate never grows a file: a truncate to 5000 bytes racing one to 100 bytes must
 * leave 100 bytes whichever runs first (the one to 5000 finds the file shorter and does nothing).
 * Checking the size and cutting in two steps let the other truncate land in between, and the file
 * then grew back to 5000 bytes (zeros after the first 100).
 */
class ConcurrentTruncateTest {
    /**
     * Before its fix the race showed within 11-420 rounds; 1,500 rounds or 3 s, whichever ends
     * first, keep that margin without costing a loaded CI machine a minute (8,000 rounds took 61 s).
     */
    private static final int ROUNDS = 1_500;
    private static final long BUDGET_NANOS = 3_000_000_000L;

    @TempDir
    Path tmp;

    @Test
    void aTruncateRacingAShorterOneNeverGrowsTheFile() throws Exception {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(),
                VaultOnTempDirContractTest.FAST);
             FileChannel a = FileChannel.open(fs.getPath("/f"), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                     StandardOpenOption.READ);
             FileChannel b = FileChannel.open(fs.getPath("/f"), StandardOpenOption.WRITE)) {
            byte[] content = new byte[10_000];
            java.util.Arrays.fill(content, (byte) 'x');
            // Two spinning threads meet before each round's truncates (arrivals counted by 2 per round),
            // and again after them; the shorter truncate is delayed by a few spins more each round,
            // so that the rounds sweep every offset between the two.
            AtomicInteger start = new AtomicInteger();
            AtomicInteger done = new AtomicInteger();
            CompletableFuture<Void> shorter = CompletableFuture.runAsync(() -> {
                for (int round = 0; meet(start, round); round++) { // until the test's thread has ended
                    for (int spin = round % 200; spin > 0; spin--) {
                        Thread.onSpinWait();
                    }
                    truncate(b, 100);
                    if (!meet(done, round)) {
                        return;
                    }
                }
            }, runnable -> {
                Thread t = new Thread(runnable, "shorter");
                t.setDaemon(true); // left spinning if this test fails: it must not keep the JVM up
                t.start();
            });
            long deadline = System.nanoTime() + BUDGET_NANOS;
            try {
                for (int round = 0; round < ROUNDS && System.nanoTime() - deadline < 0; round++) {
                    a.write(ByteBuffer.wrap(content), 0);
                    meetOrFail(start, round, shorter);
                    a.truncate(5000);
                    meetOrFail(done, round, shorter);
                    assertThat(a.size()).as("round %d", round).isEqualTo(100);
                }
            } finally {
                abandoned = true;
            }
            shorter.join();
            assertThat(Files.size(fs.getPath("/f"))).isEqualTo(100);
        }
    }

    /** Set when the test's own thread stops (its rounds are done, or it failed): the other one stops waiting for it. */
    private volatile boolean abandoned;

    /** Waits until both threads have arrived for {@code round}; false once the test's thread has stopped instead. */
    private boolean meet(AtomicInteger arrivals, int round) {
        arrivals.incrementAndGet();
        while (arrivals.get() < 2 * (round + 1)) {
            if (abandoned) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    /** As {@link #meet}, for the test's own thread: fails if the other thread failed. */
    private static void meetOrFail(AtomicInteger arrivals, int round, CompletableFuture<Void> other) {
        arrivals.incrementAndGet();
        while (arrivals.get() < 2 * (round + 1)) {
            if (other.isDone()) {
                other.join(); // throws its failure
                throw new AssertionError("the other thread ended early");
            }
            Thread.onSpinWait();
        }
    }

    private static void truncate(FileChannel ch, long size) {
        try {
            ch.truncate(size);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
