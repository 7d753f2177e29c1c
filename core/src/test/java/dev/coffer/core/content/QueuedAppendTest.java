package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.crypto.AesSiv;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Streaming appends queued before they are encrypted ({@link AppendQueue}): acknowledged while the
 * writes before them still run, at most {@link AppendQueue#DEPTH} of them, only while the store has
 * room to spare; a failure among them cuts the file back to before the failed one, drops the ones
 * after it and is thrown once, as a lost earlier write, by the next call that drains. The writes are
 * held with a gate on the channel, so no test depends on timing to catch the queue busy.
 */
@Timeout(60) // a regression that writes at once would block at the gate: fail, do not hang
class QueuedAppendTest {
    private static final int S = SectorLayout.SECTOR;
    /** One batch of units: an append this large is queued. */
    private static final int BATCH = 32 * S;

    @TempDir
    Path tmp;

    private final ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), true);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    /** Whoever holds the channel's writes must open the gate in the end, or a runner stays blocked. */
    private CountDownLatch gate = new CountDownLatch(1);

    @AfterEach
    void openTheGate() {
        gate.countDown();
        threads.shutdownNow();
    }

    /** A store with plenty of room: every streaming append may be queued. */
    private static final OpenFile.FreeSpace ROOMY = () -> Long.MAX_VALUE / 2;

    private SpaceLimitedChannel channel(Path file) throws IOException {
        return new SpaceLimitedChannel(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE), Long.MAX_VALUE);
    }

    /**
     * A thread whose interrupt flag is set (a cancelled task) uses the file while appends are queued:
     * the JDK would close the ciphertext channel that every handle shares, dropping the queued appends
     * and failing every later call; the calls work, the appends land, and the thread keeps its flag.
     */
    @Test
    void anInterruptedThreadUsingTheFileClosesNothingForTheOthers() throws Exception {
        Path file = tmp.resolve("f.c9r");
        byte[] content = random(4 * BATCH, 11);
        SpaceLimitedChannel ch = channel(file);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false, ROOMY)) {
            f.write(ByteBuffer.wrap(content, 0, BATCH), 0);
            ch.setGate(gate);
            for (int i = 1; i < 4; i++) {
                f.write(ByteBuffer.wrap(content, i * BATCH, BATCH), (long) i * BATCH);
            }
            assertThat(interrupted(() -> f.ciphertextChannel().lock(0, 1, true).release())).isTrue();
            gate.countDown();
            assertThat(interrupted(() -> f.force(true))).isTrue();
            ByteBuffer back = ByteBuffer.allocate(content.length);
            assertThat(interrupted(() -> {
                while (back.hasRemaining() && f.read(back, back.position()) > 0) {
                    // reads until full
                }
            })).isTrue();
            assertThat(back.array()).isEqualTo(content);
            f.write(ByteBuffer.allocate(0), 0); // a flush point: no loss to report
            assertThat(f.size()).isEqualTo(content.length);
        }
    }

    /**
     * An append whose units land but whose re-tag of the old last unit does not (the store full just
     * then): it is reported as undone, so it must be gone from the disk too, not come back when the
     * file is opened again (behind an old last unit that would still be tagged as the last).
     */
    @Test
    void anAppendWhoseReTagFailedIsGoneAfterTheFileIsOpenedAgain() throws Exception {
        Path file = tmp.resolve("f.c9r");
        byte[] content = random(3 * BATCH, 13);
        SpaceLimitedChannel ch = channel(file);
        SectorLayout layout = keys.layout();
        try (OpenFile f = new OpenFile(ch, keys, "/f", false, ROOMY)) {
            f.write(ByteBuffer.wrap(content, 0, BATCH), 0);
            ch.setGate(gate);
            f.write(ByteBuffer.wrap(content, BATCH, BATCH), BATCH);
            f.write(ByteBuffer.wrap(content, 2 * BATCH, BATCH), 2L * BATCH);
            // Room for the second batch's units, not for the re-tag of the first batch's last unit after them.
            ch.setBudget(layout.ciphertextLength(2L * BATCH) - layout.ciphertextLength(BATCH));
            gate.countDown();
            assertThatThrownBy(() -> f.force(true)).isInstanceOf(IOException.class);
            assertThat(f.size()).isEqualTo(BATCH);
        }
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE), keys, "/f", false)) {
            assertThat(f.size()).isEqualTo(BATCH);
            ByteBuffer back = ByteBuffer.allocate(BATCH);
            while (back.hasRemaining() && f.read(back, back.position()) > 0) {
                // reads until full
            }
            assertThat(back.array()).isEqualTo(Arrays.copyOf(content, BATCH));
        }
    }

    /** Runs {@code io} on a thread whose interrupt flag is set; returns whether the flag is still set after it. */
    private boolean interrupted(OpenFile.IoAction io) throws Exception {
        return threads.submit(() -> {
            Thread.currentThread().interrupt();
            io.run();
            return Thread.currentThread().isInterrupted();
        }).get(30, TimeUnit.SECONDS);
    }

    @Test
    void anAppendOfABatchAndAFewBytesMoreIsWrittenNotRefused() throws Exception {
        Path file = tmp.resolve("f.c9r");
        byte[] content = random(S + BATCH + 10, 7); // its last unit holds 4,106 bytes: more than a batch in all
        try (OpenFile f = new OpenFile(channel(file), keys, "/f", false, ROOMY)) {
            f.write(ByteBuffer.wrap(content, 0, S), 0);
            assertThat(f.write(ByteBuffer.wrap(content, S, BATCH + 10), S)).isEqualTo(BATCH + 10);
            assertThat(f.size()).isEqualTo(content.length);
        }
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE), keys, "/f", false)) {
            ByteBuffer back = ByteBuffer.allocate(content.length);
            while (back.hasRemaining() && f.read(back, back.position()) > 0) {
                // reads until full
            }
            assertThat(back.array()).isEqualTo(content);
        }
    }

    @Test
    void appendsAreAcknowledgedWhileTheWritesBeforeThemAreHeldAndReadBackAfterwards() throws Exception {
        Path file = tmp.resolve("f.c9r");
        byte[] content = random(5 * BATCH, 1);
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/f", false, ROOMY);
        f.write(ByteBuffer.wrap(content, 0, BATCH), 0); // a new file: written before the call returns
        ch.setGate(gate);
        for (int i = 1; i < 5; i++) {
            assertThat(f.write(ByteBuffer.wrap(content, i * BATCH, BATCH), (long) i * BATCH)).isEqualTo(BATCH);
        }
        assertThat(f.size()).isEqualTo(5L * BATCH);
        assertThat(Files.size(file)).as("nothing of the four appends is written yet")
                .isEqualTo(keys.layout().ciphertextLength(BATCH));

        Future<byte[]> read = threads.submit(() -> readAll(f));
        assertThatThrownBy(() -> read.get(200, TimeUnit.MILLISECONDS)).as("a read waits for the queue")
                .isInstanceOf(TimeoutException.class);
        gate.countDown();
        assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo(content);
        f.close();
        assertThat(Files.size(file)).isEqualTo(keys.layout().ciphertextLength(content.length));
        assertThat(readAll(file)).isEqualTo(content);
    }

    /** What the test does after a queued append failed. */
    enum Next { WRITE, EMPTY_WRITE, APPEND, SET_SIZE, FORCE, CLOSE, READ_THEN_WRITE }

    /**
     * Three appends queued behind a held write; the store then takes the first (its units and the
     * re-tag of the unit before it) and fails the second. The next call that drains throws the loss
     * (once) as an earlier write lost; the file is cut back to the end of the first append, the third
     * is never written, and the file stays usable.
     */
    @ParameterizedTest
    @EnumSource(Next.class)
    void aFailedQueuedAppendCutsTheFileBackDropsTheAppendsAfterItAndIsThrownOnce(Next next) throws Exception {
        Path file = tmp.resolve("g.c9r");
        byte[] content = random(4 * BATCH, 2);
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/f", false, ROOMY);
        f.write(ByteBuffer.wrap(content, 0, BATCH), 0);
        long afterFirst = keys.layout().ciphertextLength(BATCH);
        long afterSecond = keys.layout().ciphertextLength(2L * BATCH);
        ch.setGate(gate);
        for (int i = 1; i < 4; i++) {
            f.write(ByteBuffer.wrap(content, i * BATCH, BATCH), (long) i * BATCH);
        }
        int writesBefore = ch.writes.size();
        // Room for the second batch's units and the first batch's re-tagged last unit, nothing more.
        ch.setBudget(afterSecond - afterFirst + keys.layout().storedUnitSize());
        gate.countDown();
        awaitRunnerStopped(f); // the failure exists before the next call (else an append might just queue)

        assertThatThrownBy(() -> nextCall(f, next)).isInstanceOf(EarlierWriteLostException.class)
                .hasMessageStartingWith(EarlierWriteLostException.MESSAGE_START).hasMessageContaining("No space left");
        assertThat(f.undoneFailures()).isEqualTo(1);
        assertThat(Files.size(file)).isEqualTo(afterSecond);
        assertThat(ch.writes.stream().skip(writesBefore).filter(w -> w[0] >= afterSecond + keys.layout().storedUnitSize()))
                .as("nothing of the append after the failed one reached the store").isEmpty();
        ch.setBudget(Long.MAX_VALUE);
        byte[] expected = Arrays.copyOf(content, 2 * BATCH);
        if (next == Next.CLOSE) {
            assertThat(readAll(file)).isEqualTo(expected);
            return;
        }
        assertThat(f.size()).isEqualTo(2L * BATCH);
        assertThat(readAll(f)).isEqualTo(expected);
        // Told once; the file takes the lost appends again.
        f.write(ByteBuffer.wrap(content, 2 * BATCH, 2 * BATCH), 2L * BATCH);
        f.close();
        assertThat(readAll(file)).isEqualTo(content);
    }

    private static void nextCall(OpenFile f, Next next) throws IOException {
        switch (next) {
            case WRITE -> f.write(ByteBuffer.wrap(new byte[10]), 0);
            case EMPTY_WRITE -> f.write(ByteBuffer.allocate(0), 0);
            case APPEND -> f.append(ByteBuffer.wrap(new byte[BATCH]));
            case SET_SIZE -> f.setSize(1);
            case FORCE -> f.force(false);
            case CLOSE -> f.close();
            case READ_THEN_WRITE -> {
                // A reader waits for the queue and sees the file cut back, without the error: that is the writer's.
                assertThat(f.read(ByteBuffer.allocate(10), 0)).isEqualTo(10);
                assertThat(f.size()).isEqualTo(2L * BATCH);
                f.write(ByteBuffer.wrap(new byte[BATCH]), 4L * BATCH);
            }
        }
    }

    /**
     * A failure counted for the file is what every channel's flush point reports: the count that the
     * frontends compare ({@link OpenFile#undoneFailureAfter}) covers queued appends too.
     */
    @Test
    void aFailedQueuedAppendIsCountedOnceForEveryReporter() throws Exception {
        Path file = tmp.resolve("c.c9r");
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = withOneAppendHeld(ch, 3);
        ch.setBudget(0);
        gate.countDown();
        awaitRunnerStopped(f);
        assertThatThrownBy(() -> f.write(ByteBuffer.allocate(0), 0)).isInstanceOf(EarlierWriteLostException.class);
        assertThat(f.undoneFailures()).isEqualTo(1);
        assertThat(f.undoneFailureAfter(0)).isInstanceOf(EarlierWriteLostException.class);
        assertThat(((EarlierWriteLostException) f.undoneFailureAfter(0)).count()).isEqualTo(1);
        assertThat(f.undoneFailureAfter(1)).isNull();
        f.write(ByteBuffer.allocate(0), 0); // already told: nothing more
        ch.setBudget(Long.MAX_VALUE);
        f.close();
        assertThat(readAll(file)).isEqualTo(random(BATCH, 3));
    }

    /**
     * While the writes are held, a writer gets at most one append running and {@link AppendQueue#DEPTH}
     * queued acknowledged; its next call waits for room, and everything lands once the store goes on.
     */
    @Test
    void atMostTheQueuesDepthOfAppendsIsAcknowledgedAheadOfTheStore() throws Exception {
        Path file = tmp.resolve("d.c9r");
        int appends = AppendQueue.DEPTH + 8;
        byte[] content = random((appends + 1) * BATCH, 5);
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/f", false, ROOMY);
        f.write(ByteBuffer.wrap(content, 0, BATCH), 0);
        ch.setGate(gate);
        AtomicInteger acknowledged = new AtomicInteger();
        Future<?> writer = threads.submit(() -> {
            for (int i = 1; i <= appends; i++) {
                f.write(ByteBuffer.wrap(content, i * BATCH, BATCH), (long) i * BATCH);
                acknowledged.incrementAndGet();
            }
            return null;
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (acknowledged.get() < AppendQueue.DEPTH + 1 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Thread.sleep(200); // time for any acknowledgement beyond the bound to show
        assertThat(acknowledged.get()).isEqualTo(AppendQueue.DEPTH + 1);
        gate.countDown();
        writer.get(30, TimeUnit.SECONDS);
        f.close();
        assertThat(readAll(file)).isEqualTo(content);
    }

    /**
     * A store short of room ({@link OpenFile#QUEUE_HEADROOM} or less free) queues nothing: the write
     * behind of one batch waits for the batch before it, as without a queue, so a full disk is met by
     * the next call. The store is asked once per burst (and per 4 MiB), not per append.
     */
    @Test
    void aStoreShortOfRoomQueuesNothingAndIsAskedOncePerBurst() throws Exception {
        Path file = tmp.resolve("e.c9r");
        AtomicLong free = new AtomicLong(OpenFile.QUEUE_HEADROOM);
        AtomicInteger asked = new AtomicInteger();
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/f", false, () -> {
            asked.incrementAndGet();
            return free.get();
        });
        byte[] content = random(3 * BATCH, 6);
        assertTheSecondAppendWaitsForTheFirst(f, ch, content);
        assertThat(readAll(f)).isEqualTo(content);

        // With room again, one burst of appends (held at a gate, so the queue stays busy) asks once.
        free.set(Long.MAX_VALUE / 2);
        asked.set(0);
        CountDownLatch held = new CountDownLatch(1);
        ch.setGate(held);
        byte[] burst = random(BATCH, 100);
        try {
            for (int i = 0; i < AppendQueue.DEPTH; i++) {
                f.append(ByteBuffer.wrap(burst));
            }
            assertThat(asked.get()).isEqualTo(1);
        } finally {
            held.countDown();
        }
        f.close();
    }

    /**
     * Writes {@code content}'s first batch, then appends its second (written behind, held at the gate)
     * and checks that the third waits for it, as without a queue, until the gate opens.
     */
    private void assertTheSecondAppendWaitsForTheFirst(OpenFile f, SpaceLimitedChannel ch, byte[] content) throws Exception {
        f.write(ByteBuffer.wrap(content, 0, BATCH), 0);
        ch.setGate(gate);
        f.write(ByteBuffer.wrap(content, BATCH, BATCH), BATCH);
        Future<?> third = threads.submit(() -> f.write(ByteBuffer.wrap(content, 2 * BATCH, BATCH), 2L * BATCH));
        assertThatThrownBy(() -> third.get(200, TimeUnit.MILLISECONDS)).as("waits for the write before it")
                .isInstanceOf(TimeoutException.class);
        gate.countDown();
        third.get(10, TimeUnit.SECONDS);
    }

    /** A store that cannot say how much room it has is short of room: nothing is queued, nothing fails. */
    @Test
    void aStoreThatCannotTellItsFreeSpaceQueuesNothing() throws Exception {
        Path file = tmp.resolve("h.c9r");
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/f", false, () -> {
            throw new IOException("statvfs failed");
        });
        byte[] content = random(3 * BATCH, 7);
        assertTheSecondAppendWaitsForTheFirst(f, ch, content);
        f.close();
        assertThat(readAll(file)).isEqualTo(content);
    }

    /**
     * Streaming appends (queued) mixed with everything else a file sees: writes inside it, appends
     * that are not one batch, truncates, reads, zero-length writes and reopening, some writes slowed
     * so the queue is still busy when the next call comes. After each call the content matches a byte
     * array, and after the last the ciphertext length is the layout's.
     */
    @Test
    void queuedAppendsMixedWithEveryOtherCallMatchAByteArray() throws Exception {
        Path file = tmp.resolve("m.c9r");
        Random rnd = new Random(8);
        byte[] model = new byte[0];
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/f", false, ROOMY);
        for (int op = 0; op < 600; op++) {
            ch.setWriteDelayMillis(rnd.nextInt(8) == 0 ? 1 : 0);
            int kind = rnd.nextInt(20);
            if (kind < 11) { // a streaming append: mostly whole batches at a unit boundary
                int len = rnd.nextInt(4) == 0 ? 16 * S + rnd.nextInt(16 * S) : BATCH;
                long pos = model.length % S == 0 ? model.length : model.length + (S - model.length % S);
                if (rnd.nextInt(5) == 0) {
                    pos += (long) S * (1 + rnd.nextInt(3)); // a gap of whole units
                    len = Math.min(len, 30 * S);
                }
                byte[] data = random(len, op);
                f.write(ByteBuffer.wrap(data), pos);
                model = Arrays.copyOf(model, (int) (pos + len));
                System.arraycopy(data, 0, model, (int) pos, len);
            } else if (kind < 14 && model.length > 0) { // a write somewhere inside, or across the end
                long pos = rnd.nextInt(model.length);
                byte[] data = random(1 + rnd.nextInt(3 * S), 1000 + op);
                f.write(ByteBuffer.wrap(data), pos);
                model = Arrays.copyOf(model, (int) Math.max(model.length, pos + data.length));
                System.arraycopy(data, 0, model, (int) pos, data.length);
            } else if (kind < 15) {
                long n = rnd.nextInt(model.length + 1);
                f.setSize(n);
                model = Arrays.copyOf(model, (int) n);
            } else if (kind < 17 && model.length > 0) {
                long from = rnd.nextInt(model.length);
                int len = (int) Math.min(model.length - from, 1 + rnd.nextInt(2 * BATCH));
                assertThat(Arrays.equals(read(f, from, len), Arrays.copyOfRange(model, (int) from, (int) from + len)))
                        .as("read after op %d", op).isTrue();
            } else if (kind < 18) {
                f.write(ByteBuffer.allocate(0), 0);
            } else if (kind < 19) {
                f.force(false);
                assertThat(Files.size(file)).as("after force, op %d", op).isEqualTo(keys.layout().ciphertextLength(model.length));
            } else {
                f.close();
                assertThat(Files.size(file)).isEqualTo(keys.layout().ciphertextLength(model.length));
                ch = channel(file);
                f = new OpenFile(ch, keys, "/f", false, ROOMY);
            }
            if (model.length > 20 * BATCH) {
                f.setSize(BATCH);
                model = Arrays.copyOf(model, BATCH);
            }
            assertThat(f.size()).as("size after op %d", op).isEqualTo(model.length);
        }
        assertThat(readAll(f)).isEqualTo(model);
        f.close();
        assertThat(readAll(file)).isEqualTo(model);
    }

    /**
     * A file on {@code ch} with one batch of {@code random(BATCH, seed)} written, then one of
     * {@code random(BATCH, seed + 1)} appended, queued and held at the gate.
     */
    private OpenFile withOneAppendHeld(SpaceLimitedChannel ch, long seed) throws IOException {
        OpenFile f = new OpenFile(ch, keys, "/f", false, ROOMY);
        f.write(ByteBuffer.wrap(random(BATCH, seed)), 0);
        ch.setGate(gate);
        f.write(ByteBuffer.wrap(random(BATCH, seed + 1)), BATCH);
        return f;
    }

    private static void awaitRunnerStopped(OpenFile f) throws InterruptedException {
        while (f.appendsRunning()) {
            Thread.sleep(1);
        }
    }

    /**
     * Appends that leave a gap of whole units (written as encrypted zeros) or a partial last unit,
     * queued while the writes before them are held: the gap's units count toward the batch, and an
     * append after a partial last unit (which must be read back and extended) waits for the queue.
     */
    @Test
    void gapsOfWholeUnitsAndPartialLastUnitsWhileTheQueueIsBusy() throws Exception {
        Path file = tmp.resolve("p.c9r");
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/f", false, ROOMY);
        byte[] model = random(BATCH, 20);
        f.write(ByteBuffer.wrap(model), 0);
        ch.setGate(gate);
        // Two units of gap, then 20 units: 22 new units, queued.
        byte[] a = random(20 * S, 21);
        f.write(ByteBuffer.wrap(a), BATCH + 2L * S);
        // 17.5 units right after: queued, leaves a partial last unit.
        byte[] b = random(17 * S + S / 2, 22);
        long bAt = BATCH + 22L * S;
        f.write(ByteBuffer.wrap(b), bAt);
        assertThat(f.size()).isEqualTo(bAt + b.length);
        // The next append extends the partial unit: not queued, it waits for the two held ones.
        byte[] c = random(BATCH, 23);
        long cAt = bAt + b.length;
        Future<?> third = threads.submit(() -> f.write(ByteBuffer.wrap(c), cAt));
        assertThatThrownBy(() -> third.get(200, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        gate.countDown();
        third.get(10, TimeUnit.SECONDS);
        byte[] expected = new byte[(int) (cAt + c.length)];
        System.arraycopy(model, 0, expected, 0, BATCH);
        System.arraycopy(a, 0, expected, BATCH + 2 * S, a.length);
        System.arraycopy(b, 0, expected, (int) bAt, b.length);
        System.arraycopy(c, 0, expected, (int) cAt, c.length);
        assertThat(readAll(f)).isEqualTo(expected);
        f.close();
        assertThat(readAll(file)).isEqualTo(expected);
    }

    /**
     * A time set on the ciphertext after the last write (as {@code cp -a} does before close) waits for
     * the queued appends: a queued write landing after it would overwrite it.
     */
    @Test
    void aChangeAfterTheLastWriteWaitsForTheQueue() throws Exception {
        Path file = tmp.resolve("t.c9r");
        OpenFile f = withOneAppendHeld(channel(file), 30);
        long[] lengthSeen = new long[1];
        Future<?> change = threads.submit(() -> {
            f.whenWritesLanded(() -> lengthSeen[0] = Files.size(file));
            return null;
        });
        assertThatThrownBy(() -> change.get(200, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        gate.countDown();
        change.get(10, TimeUnit.SECONDS);
        assertThat(lengthSeen[0]).isEqualTo(keys.layout().ciphertextLength(2L * BATCH));
        f.close();
    }

    /**
     * The store is asked afresh at the start of every burst: room seen during an earlier stream does
     * not let appends queue after the disk filled up while the file sat idle.
     */
    @Test
    void roomSeenEarlierDoesNotCarryOverToTheNextBurst() throws Exception {
        Path file = tmp.resolve("r.c9r");
        AtomicLong free = new AtomicLong(Long.MAX_VALUE / 2);
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/f", false, free::get);
        f.write(ByteBuffer.wrap(random(BATCH, 40)), 0);
        f.append(ByteBuffer.wrap(random(BATCH, 41))); // queued: credit left for ~30 more
        readAll(f); // the queue goes idle
        free.set(OpenFile.QUEUE_HEADROOM); // the disk filled up meanwhile
        ch.setGate(gate);
        f.append(ByteBuffer.wrap(random(BATCH, 42))); // written behind (not queued), held at the gate
        Future<?> next = threads.submit(() -> f.append(ByteBuffer.wrap(random(BATCH, 43))));
        assertThatThrownBy(() -> next.get(200, TimeUnit.MILLISECONDS)).as("waits for the one write behind")
                .isInstanceOf(TimeoutException.class);
        gate.countDown();
        next.get(10, TimeUnit.SECONDS);
        f.close();
    }

    private static byte[] random(int len, long seed) {
        byte[] b = new byte[len];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] read(OpenFile f, long from, int len) throws IOException {
        return OpenFileReads.read(f, from, len);
    }

    private static byte[] readAll(OpenFile f) throws IOException {
        return OpenFileReads.readAll(f);
    }

    private byte[] readAll(Path file) throws IOException {
        return OpenFileReads.readAll(file, keys);
    }
}
