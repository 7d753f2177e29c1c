package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.crypto.AesSiv;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes made once the JVM's exit has begun ({@link ExitWaits}' flag, set here by reflection as the
 * hooks set it): each is written on its caller's thread and its outcome is that call's own, never
 * acknowledged before it is written nor reported twice; a refused queue offer leaves nothing behind.
 * {@link ExitWithoutCloseTest} runs the same through real shutdown hooks in a child JVM.
 */
@Timeout(60)
class ExitBeganWritesTest {
    private static final int S = SectorLayout.SECTOR;
    private static final int BATCH = 32 * S;
    private static final OpenFile.FreeSpace ROOMY = () -> Long.MAX_VALUE / 2;
    @TempDir Path tmp;
    private final ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), true);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final CountDownLatch gate = new CountDownLatch(1);

    static void setExiting(boolean v) throws Exception {
        Field f = ExitWaits.class.getDeclaredField("exiting");
        f.setAccessible(true);
        f.setBoolean(null, v);
    }

    @SuppressWarnings("unchecked")
    static Set<Object> running(Class<?> c) throws Exception {
        Field f = c.getDeclaredField("RUNNING");
        f.setAccessible(true);
        return (Set<Object>) f.get(null);
    }

    @AfterEach
    void reset() throws Exception {
        gate.countDown();
        threads.shutdownNow();
        setExiting(false);
    }

    private SpaceLimitedChannel channel(Path file) throws IOException {
        return new SpaceLimitedChannel(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE), Long.MAX_VALUE);
    }

    static byte[] random(int len, long seed) {
        byte[] b = new byte[len];
        new Random(seed).nextBytes(b);
        return b;
    }

    private byte[] readAll(Path file) throws IOException {
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
            ByteBuffer back = ByteBuffer.allocate((int) f.size());
            while (back.hasRemaining() && f.read(back, back.position()) >= 0) { }
            return back.array();
        }
    }

    /** exiting: a failed (would-be behind) write is this call's own failure, once, and the file is as before. */
    @Test
    void aFailedWriteDuringExitIsThrownByItsOwnCallOnce() throws Exception {
        Path file = tmp.resolve("a.c9r");
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/f", false);
        byte[] content = random(3 * BATCH, 1);
        f.write(ByteBuffer.wrap(content, 0, BATCH), 0);
        setExiting(true);
        ch.setBudget(0);
        assertThatThrownBy(() -> f.write(ByteBuffer.wrap(content, BATCH, BATCH), BATCH))
                .isInstanceOf(IOException.class).isNotInstanceOf(EarlierWriteLostException.class)
                .hasMessageContaining("No space left");
        assertThat(f.size()).isEqualTo(BATCH);
        assertThat(Files.size(file)).isEqualTo(keys.layout().ciphertextLength(BATCH));
        assertThat(f.undoneFailures()).isZero();
        assertThat(running(PendingWrite.class)).isEmpty();
        ch.setBudget(Long.MAX_VALUE);
        f.write(ByteBuffer.wrap(content, BATCH, 2 * BATCH), BATCH); // not reported again
        f.force(false);
        f.close();
        assertThat(readAll(file)).isEqualTo(content);
    }

    /** exiting set while a call's first batch runs behind: its later batches are written here; a failure undoes the whole call. */
    @Test
    void exitBeginsBetweenTheBatchesOfOneCall() throws Exception {
        Path file = tmp.resolve("b.c9r");
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/f", false);
        byte[] content = random(4 * BATCH, 2);
        f.write(ByteBuffer.wrap(content, 0, BATCH), 0);
        ch.setGate(gate);
        Future<Integer> w = threads.submit(() -> f.write(ByteBuffer.wrap(content, BATCH, 3 * BATCH), BATCH));
        assertThatThrownBy(() -> w.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        setExiting(true);
        // the first batch behind may land; then nothing more
        ch.setBudget(keys.layout().ciphertextLength(2L * BATCH) - keys.layout().ciphertextLength(BATCH)
                + keys.layout().storedUnitSize());
        gate.countDown();
        assertThatThrownBy(w::get).hasCauseInstanceOf(IOException.class)
                .satisfies(e -> assertThat(e.getCause()).isNotInstanceOf(EarlierWriteLostException.class));
        assertThat(f.size()).isEqualTo(BATCH);
        assertThat(Files.size(file)).isEqualTo(keys.layout().ciphertextLength(BATCH));
        assertThat(f.undoneFailures()).isZero();
        ch.setBudget(Long.MAX_VALUE);
        f.write(ByteBuffer.wrap(content, BATCH, 3 * BATCH), BATCH);
        f.close();
        assertThat(readAll(file)).isEqualTo(content);
    }

    /** exiting while a queue runs: the next append is refused, waits for the queue and writes itself. */
    @Test
    void anAppendDuringExitWaitsForTheRunningQueue() throws Exception {
        Path file = tmp.resolve("c.c9r");
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/f", false, ROOMY);
        byte[] content = random(3 * BATCH, 3);
        f.write(ByteBuffer.wrap(content, 0, BATCH), 0);
        ch.setGate(gate);
        f.write(ByteBuffer.wrap(content, BATCH, BATCH), BATCH); // queued, held
        assertThat(f.appendsRunning()).isTrue();
        setExiting(true);
        Future<Integer> w = threads.submit(() -> f.write(ByteBuffer.wrap(content, 2 * BATCH, BATCH), 2L * BATCH));
        assertThatThrownBy(() -> w.get(300, TimeUnit.MILLISECONDS)).as("waits for the queue").isInstanceOf(TimeoutException.class);
        gate.countDown();
        assertThat(w.get(10, TimeUnit.SECONDS)).isEqualTo(BATCH);
        assertThat(f.appendsRunning()).isFalse();
        assertThat(Files.size(file)).isEqualTo(keys.layout().ciphertextLength(3L * BATCH));
        assertThat(running(AppendQueue.class)).isEmpty();
        assertThat(running(PendingWrite.class)).isEmpty();
        f.close();
        assertThat(readAll(file)).isEqualTo(content);
    }

    /** exiting, a queue that failed: the loss is thrown once (EarlierWriteLost), then the file is usable. */
    @Test
    void aQueuedFailureDuringExitIsThrownOnce() throws Exception {
        Path file = tmp.resolve("d.c9r");
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/f", false, ROOMY);
        byte[] content = random(3 * BATCH, 4);
        f.write(ByteBuffer.wrap(content, 0, BATCH), 0);
        ch.setGate(gate);
        f.write(ByteBuffer.wrap(content, BATCH, BATCH), BATCH);
        setExiting(true);
        ch.setBudget(0);
        gate.countDown();
        while (f.appendsRunning()) { Thread.sleep(1); }
        assertThatThrownBy(() -> f.write(ByteBuffer.wrap(content, 2 * BATCH, BATCH), 2L * BATCH))
                .isInstanceOf(EarlierWriteLostException.class);
        assertThat(f.undoneFailures()).isEqualTo(1);
        ch.setBudget(Long.MAX_VALUE);
        f.write(ByteBuffer.wrap(content, BATCH, 2 * BATCH), BATCH);
        f.close();
        assertThat(readAll(file)).isEqualTo(content);
    }

    /** The refused offer leaves nothing registered, running or busy, and its cleartext copy wiped. */
    @Test
    void aRefusedOfferLeavesNothingBehind() throws Exception {
        AppendQueue q = new AppendQueue(a -> { throw new AssertionError("ran"); }, 64, AppendQueue.DEPTH);
        setExiting(true);
        byte[] data = random(64, 5);
        assertThat(q.offer(0, 64, 0, data, 0, 64)).isFalse();
        assertThat(q.isRunning()).isFalse();
        assertThat(q.busy()).isFalse();
        assertThat(q.spareCount()).isEqualTo(1);
        assertThat(q.sparesWiped()).isTrue();
        assertThat(running(AppendQueue.class)).doesNotContain(q);
    }
}
