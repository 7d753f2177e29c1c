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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SIV_XTSHMAC appends of a whole batch run behind (their ciphertext write overlaps the caller's next
 * encryption): the next call sees them, a failure among them is thrown by the next call, force or
 * close and undone, and their units and the re-tag of the old last unit go out in spec order.
 * SIV_XTS appends take the same path but write before returning.
 */
class WriteBehindTest {
    private static final int S = SectorLayout.SECTOR;
    /** One batch of units: an append this large runs behind. */
    private static final int BATCH = 32 * S;

    @TempDir
    Path tmp;

    /** What the test does after an append whose write behind failed. */
    enum Next { WRITE, EMPTY_WRITE, APPEND, SET_SIZE, FORCE, CLOSE }

    @ParameterizedTest
    @EnumSource(Next.class)
    void aFailedWriteBehindIsThrownByTheNextCallAndLeavesTheFileAsBeforeIt(Next next) throws IOException {
        ContentKeys keys = keys(true);
        Path file = tmp.resolve("f.c9r");
        byte[] first = random(BATCH, 1);
        SpaceLimitedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/f", false);
        f.write(ByteBuffer.wrap(first), 0);
        ch.setBudget(0);
        ch.setWriteDelayMillis(50);
        // With no space left, only a write that runs behind can return normally.
        f.write(ByteBuffer.wrap(random(BATCH, 2)), BATCH);
        assertThat(f.size()).isEqualTo(2L * BATCH);

        assertThatThrownBy(() -> nextCall(f, next)).isInstanceOf(IOException.class).hasMessageContaining("No space left");

        ch.setWriteDelayMillis(0);
        ch.setBudget(Long.MAX_VALUE);
        long oldLength = keys.layout().ciphertextLength(BATCH);
        assertThat(Files.size(file)).isEqualTo(oldLength);
        if (next != Next.CLOSE) {
            assertThat(f.size()).isEqualTo(BATCH);
            assertThat(readAll(f)).isEqualTo(first);
            // The file stays usable: the same append now succeeds.
            byte[] again = random(BATCH, 3);
            f.write(ByteBuffer.wrap(again), BATCH);
            f.close();
            assertThat(readAll(file, keys)).isEqualTo(concat(first, again));
        } else {
            assertThat(readAll(file, keys)).isEqualTo(first);
        }
    }

    /**
     * A reader (or a time being set) that waits for a failed write running behind sees the file as
     * it was before that write, without an error: the failure is kept for the next call that changes
     * the file, so the writer whose data was undone learns it before writing on past the gap.
     */
    @org.junit.jupiter.api.Test
    void aReaderWaitingForAFailedWriteLeavesTheFailureForTheWriter() throws IOException {
        ContentKeys keys = keys(true);
        Path file = tmp.resolve("g.c9r");
        byte[] first = random(BATCH, 1);
        SpaceLimitedChannel ch = channel(file);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(first), 0);
            ch.setBudget(0);
            ch.setWriteDelayMillis(50);
            f.write(ByteBuffer.wrap(random(BATCH, 2)), BATCH);
            ByteBuffer head = ByteBuffer.allocate(10);
            assertThat(f.read(head, 0)).isEqualTo(10); // waits for the write: undone, no error for the reader
            assertThat(head.array()).isEqualTo(Arrays.copyOf(first, 10));
            assertThat(f.size()).isEqualTo(BATCH);
            assertThat(readAll(f)).isEqualTo(first);
            boolean[] ran = new boolean[1];
            f.whenWritesLanded(() -> ran[0] = true);
            assertThat(ran[0]).isTrue();
            ch.setWriteDelayMillis(0);
            ch.setBudget(Long.MAX_VALUE);
            assertThatThrownBy(() -> f.write(ByteBuffer.wrap(random(BATCH, 3)), 2L * BATCH))
                    .isInstanceOf(IOException.class).hasMessageContaining("No space left");
            assertThat(f.size()).isEqualTo(BATCH); // the writer's next write did nothing: no gap of zeros
            f.write(ByteBuffer.wrap(random(BATCH, 4)), BATCH); // reported once; the file stays usable
        }
        assertThat(readAll(file, keys)).isEqualTo(concat(first, random(BATCH, 4)));
    }

    /**
     * A later call reports a lost write behind as an {@link EarlierWriteLostException}, and counts it
     * for every channel; a call whose own earlier batch fails (one call of two batches) fails with its
     * own error, counted nowhere: that call reports failure, nothing it acknowledged is lost.
     */
    @org.junit.jupiter.api.Test
    void onlyAWriteWhoseCallHadReturnedIsReportedAsAnEarlierWriteLost() throws IOException {
        ContentKeys keys = keys(true);
        byte[] first = random(BATCH, 1);
        SpaceLimitedChannel ch = channel(tmp.resolve("e.c9r"));
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(first), 0);
            ch.setBudget(0);
            ch.setWriteDelayMillis(50);
            f.write(ByteBuffer.wrap(random(BATCH, 2)), BATCH); // returns; runs behind, fails
            assertThatThrownBy(() -> f.write(ByteBuffer.wrap(new byte[10]), 5)).isInstanceOf(EarlierWriteLostException.class)
                    .hasMessageStartingWith(EarlierWriteLostException.MESSAGE_START).hasMessageContaining("No space left");
            assertThat(f.undoneFailures()).isEqualTo(1);
            assertThatThrownBy(() -> f.write(ByteBuffer.wrap(new byte[10]), 5, 0)).as("a caller told of none")
                    .isInstanceOfSatisfying(EarlierWriteLostException.class, e -> assertThat(e.count()).isEqualTo(1));
        }
        SpaceLimitedChannel other = channel(tmp.resolve("o.c9r"));
        try (OpenFile f = new OpenFile(other, keys, "/o", false)) {
            f.write(ByteBuffer.wrap(first), 0);
            other.setBudget(0);
            other.setWriteDelayMillis(50);
            assertThatThrownBy(() -> f.write(ByteBuffer.wrap(random(2 * BATCH, 3)), BATCH)).as("one call, two batches")
                    .isInstanceOf(IOException.class).isNotInstanceOf(EarlierWriteLostException.class)
                    .hasMessageContaining("No space left");
            assertThat(f.undoneFailures()).as("its own failure: not counted for other channels").isZero();
            assertThat(f.size()).isEqualTo(BATCH);
            other.setWriteDelayMillis(0);
            other.setBudget(Long.MAX_VALUE);
            f.write(ByteBuffer.allocate(0), 0); // nothing left over to throw
            assertThat(readAll(f)).isEqualTo(first);
        }
    }

    /**
     * A gathering append above 128 KiB writes its buffers one by one; the batch the first buffer
     * leaves running behind belongs to the call until it returns. Its failure, found by the next
     * buffer's write, is the call's own, counted nowhere: before, it was reported as an earlier
     * write lost and counted, so other channels reported the loss of bytes no call acknowledged.
     */
    @org.junit.jupiter.api.Test
    void aLargeGatheringAppendWhoseFirstBufferFailsBehindFailsWithItsOwnError() throws IOException {
        byte[] first = random(BATCH, 1);
        SpaceLimitedChannel ch = channel(tmp.resolve("g.c9r"));
        try (OpenFile f = new OpenFile(ch, keys(true), "/f", false)) {
            f.write(ByteBuffer.wrap(first), 0);
            ch.setBudget(0);
            ch.setWriteDelayMillis(50); // the first buffer's batch is still running when the second comes
            ByteBuffer[] record = {ByteBuffer.wrap(random(BATCH, 2)), ByteBuffer.wrap(random(BATCH, 3))};
            assertThatThrownBy(() -> f.append(record, 0, 2, Long.MAX_VALUE)).isInstanceOf(IOException.class)
                    .isNotInstanceOf(EarlierWriteLostException.class).hasMessageContaining("No space left");
            assertThat(f.undoneFailures()).as("its own failure: not counted for other channels").isZero();
            assertThat(f.size()).isEqualTo(BATCH);
            ch.setWriteDelayMillis(0);
            ch.setBudget(Long.MAX_VALUE);
            f.write(ByteBuffer.allocate(0), 0); // nothing left over to throw
            assertThat(readAll(f)).isEqualTo(first);
        }
    }

    /** SIV_XTS appends are written before the call returns: a full disk fails that very call. */
    @org.junit.jupiter.api.Test
    void sivXtsAppendsFailInTheCallThatMakesThem() throws IOException {
        ContentKeys keys = keys(false);
        Path file = tmp.resolve("x.c9r");
        byte[] first = random(BATCH, 1);
        SpaceLimitedChannel ch = channel(file);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(first), 0);
            ch.setBudget(0);
            assertThatThrownBy(() -> f.write(ByteBuffer.wrap(random(BATCH, 2)), BATCH))
                    .isInstanceOf(IOException.class).hasMessageContaining("No space left");
            assertThat(f.size()).isEqualTo(BATCH);
            ch.setBudget(Long.MAX_VALUE);
        }
        assertThat(Files.size(file)).isEqualTo(keys.layout().ciphertextLength(BATCH));
        assertThat(readAll(file, keys)).isEqualTo(first);
    }

    private static void nextCall(OpenFile f, Next next) throws IOException {
        switch (next) {
            case WRITE -> f.write(ByteBuffer.wrap(new byte[10]), 5);
            case EMPTY_WRITE -> f.write(ByteBuffer.allocate(0), 0);
            case APPEND -> f.append(ByteBuffer.wrap(new byte[BATCH]));
            case SET_SIZE -> f.setSize(7);
            case FORCE -> f.force(false);
            case CLOSE -> f.close();
        }
    }

    /** A write still running behind is waited for by reads (also concurrent ones) and counted by force. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void readsSeeAWriteThatIsStillRunningBehind(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        Path file = tmp.resolve("r.c9r");
        SpaceLimitedChannel ch = channel(file);
        byte[] expected = new byte[0];
        ExecutorService readers = Executors.newFixedThreadPool(3);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            for (int call = 0; call < 6; call++) {
                byte[] data = random(BATCH, 10 + call);
                ch.setWriteDelayMillis(call % 2 == 0 ? 30 : 0);
                f.append(ByteBuffer.wrap(data));
                expected = concat(expected, data);
                byte[] model = expected;
                int from = call * BATCH;
                List<Future<byte[]>> reads = new ArrayList<>();
                for (int r = 0; r < 3; r++) {
                    reads.add(readers.submit(() -> read(f, from, BATCH)));
                }
                for (Future<byte[]> read : reads) {
                    assertThat(read.get()).isEqualTo(Arrays.copyOfRange(model, from, from + BATCH));
                }
            }
            f.append(ByteBuffer.wrap(random(BATCH, 30)));
            f.force(true);
            assertThat(Files.size(file)).isEqualTo(keys.layout().ciphertextLength(7L * BATCH));
        } finally {
            readers.shutdown();
        }
    }

    /**
     * A caller interrupted while it waits for a write running behind keeps waiting (the write is
     * not lost, nothing is closed) and finds its interrupt flag still set afterwards.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void anInterruptedWaitStillWaitsAndKeepsTheFlag(boolean authenticated) throws IOException {
        ContentKeys keys = keys(authenticated);
        Path file = tmp.resolve("i.c9r");
        SpaceLimitedChannel ch = channel(file);
        byte[] first = random(BATCH, 8);
        byte[] second = random(BATCH, 9);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(first), 0);
            ch.setWriteDelayMillis(100);
            f.append(ByteBuffer.wrap(second));
            Thread.currentThread().interrupt();
            f.write(ByteBuffer.allocate(0), 0); // waits for the append, does no I/O itself
            assertThat(Thread.interrupted()).isTrue();
            ch.setWriteDelayMillis(0);
        }
        assertThat(readAll(file, keys)).isEqualTo(concat(first, second));
    }

    /**
     * A change to the ciphertext file made through {@link OpenFile#whenWritesLanded} (the file system
     * sets times that way) runs only after a slow write running behind has landed, so that write
     * cannot overwrite it (cp -a's utimens before close, seen through FUSE).
     */
    @Test
    void aChangeAfterTheLastWriteRunsOnlyOnceTheWriteBehindHasLanded() throws IOException {
        ContentKeys keys = keys(true);
        Path file = tmp.resolve("t.c9r");
        SpaceLimitedChannel ch = channel(file);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(random(BATCH, 1)), 0);
            ch.setWriteDelayMillis(200);
            f.append(ByteBuffer.wrap(random(BATCH, 2)));
            long[] lengthSeen = new long[1];
            f.whenWritesLanded(() -> lengthSeen[0] = Files.size(file));
            assertThat(lengthSeen[0]).isEqualTo(keys.layout().ciphertextLength(2L * BATCH));
            ch.setWriteDelayMillis(0);
        }
    }

    /** Spec 5.2's order: an append's new units are written before the old last unit is re-tagged. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void newUnitsAreWrittenBeforeTheOldLastUnitIsRetagged(boolean authenticated) throws IOException {
        ContentKeys keys = keys(authenticated);
        SectorLayout layout = keys.layout();
        Path file = tmp.resolve("o.c9r");
        SpaceLimitedChannel ch = channel(file);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(random(BATCH, 4)), 0);
            ch.writes.clear();
            f.append(ByteBuffer.wrap(random(BATCH, 5)));
            f.force(false);
            List<long[]> writes = new ArrayList<>(ch.writes);
            assertThat(writes.get(0)).containsExactly(layout.storedUnitOffset(32), 32L * layout.storedUnitSize());
            if (authenticated) {
                assertThat(writes).hasSize(2);
                assertThat(writes.get(1)).containsExactly(layout.storedUnitOffset(31), (long) layout.storedUnitSize());
            } else {
                assertThat(writes).hasSize(1);
            }
        }
    }

    /**
     * Streams of batch appends with a partial tail, reopened from disk: the re-tags made from the
     * kept copy of the last unit verify, in every length around a unit boundary at the end.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void streamedAppendsReadBackAfterReopening(boolean authenticated) throws IOException {
        ContentKeys keys = keys(authenticated);
        Random rnd = new Random(authenticated ? 11 : 12);
        for (int tail : new int[] {0, 1, 15, 16, 17, S - 1, S, S + 15, BATCH + 15}) {
            Path file = tmp.resolve("s" + tail + ".c9r");
            byte[] expected = new byte[0];
            try (OpenFile f = new OpenFile(channel(file), keys, "/f", false)) {
                for (int call = 0; call < 5; call++) {
                    int len = call == 2 ? 3 * BATCH : BATCH; // one call of several batches
                    byte[] data = new byte[len];
                    rnd.nextBytes(data);
                    f.append(ByteBuffer.wrap(data));
                    expected = concat(expected, data);
                }
                byte[] last = new byte[tail];
                rnd.nextBytes(last);
                f.append(ByteBuffer.wrap(last));
                expected = concat(expected, last);
            }
            assertThat(Files.size(file)).isEqualTo(keys.layout().ciphertextLength(expected.length));
            assertThat(readAll(file, keys)).as("tail %d", tail).isEqualTo(expected);
        }
    }

    /**
     * The old last unit is re-tagged from the copy this file wrote, never from what is on disk: a
     * unit changed on disk between two appends is overwritten with the written bytes, not authenticated.
     */
    @org.junit.jupiter.api.Test
    void anAppendNeverAuthenticatesBytesItDidNotWrite() throws IOException {
        ContentKeys keys = keys(true);
        SectorLayout layout = keys.layout();
        Path file = tmp.resolve("t.c9r");
        byte[] first = random(BATCH, 6);
        byte[] second = random(BATCH, 7);
        try (OpenFile f = new OpenFile(channel(file), keys, "/f", false)) {
            f.write(ByteBuffer.wrap(first), 0);
            try (FileChannel other = FileChannel.open(file, StandardOpenOption.WRITE)) {
                other.write(ByteBuffer.wrap(new byte[] {0x55}), layout.storedUnitOffset(31) + 100);
            }
            f.append(ByteBuffer.wrap(second));
        }
        assertThat(readAll(file, keys)).isEqualTo(concat(first, second));
    }

    /**
     * A call of several batches that fails between two of them (here: no memory for the second batch's
     * buffer) while its first batch is still being written behind leaves the file as it was: that
     * batch is waited for and cut off again, the size is the old one, and a failure of that batch
     * too is attached to the call's error. The file stays usable.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aCallFailingBetweenItsBatchesCutsOffItsBatchStillRunningBehind(boolean firstBatchFailsToo) throws IOException {
        ContentKeys keys = keys(true);
        Path file = tmp.resolve("m.c9r");
        byte[] first = random(BATCH, 1);
        SpaceLimitedChannel ch = channel(file);
        OutOfMemoryAt buffers = new OutOfMemoryAt(keys.layout(), 3); // 1: the first write, 2 and 3: the next call's batches
        try (OpenFile f = new OpenFile(ch, keys, "/f", false, null, buffers)) {
            f.write(ByteBuffer.wrap(first), 0);
            ch.setWriteDelayMillis(50); // the next call's first batch is still being written when its second fails
            if (firstBatchFailsToo) {
                ch.setBudget(0);
            }
            assertThatThrownBy(() -> f.write(ByteBuffer.wrap(random(2 * BATCH, 2)), BATCH))
                    .isInstanceOfSatisfying(OutOfMemoryError.class, e -> assertThat(e.getSuppressed()).hasSize(firstBatchFailsToo ? 1 : 0)
                            .allSatisfy(s -> assertThat(s).hasMessageContaining("No space left")));
            assertThat(buffers.calls).isEqualTo(3);
            ch.setWriteDelayMillis(0);
            ch.setBudget(Long.MAX_VALUE);
            f.force(true); // nothing of the failed call is left running to land later
            long oldLength = keys.layout().ciphertextLength(BATCH);
            assertThat(Files.size(file)).as("the first batch cut off again").isEqualTo(oldLength);
            assertThat(f.size()).isEqualTo(BATCH);
            assertThat(readAll(f)).isEqualTo(first);
            byte[] again = random(2 * BATCH, 3);
            f.write(ByteBuffer.wrap(again), BATCH);
            assertThat(readAll(f)).isEqualTo(concat(first, again));
        }
        assertThat(readAll(file, keys)).isEqualTo(concat(first, random(2 * BATCH, 3)));
    }

    /** An open file's scratch buffers whose {@code failingCall}-th batch buffer for a write cannot be made. */
    private static final class OutOfMemoryAt extends UnitBuffers {
        private final int failingCall;
        int calls;

        OutOfMemoryAt(SectorLayout layout, int failingCall) {
            super(OpenFile.buffersFor(layout));
            this.failingCall = failingCall;
        }

        @Override
        byte[] stored(int lead, int units, boolean withRetag) {
            if (++calls == failingCall) {
                throw new OutOfMemoryError("Java heap space (test)");
            }
            return super.stored(lead, units, withRetag);
        }
    }

    private static ContentKeys keys(boolean authenticated) {
        return new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
    }

    private static SpaceLimitedChannel channel(Path file) throws IOException {
        return new SpaceLimitedChannel(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE), Long.MAX_VALUE);
    }

    private static byte[] random(int len, long seed) {
        byte[] b = new byte[len];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private static byte[] read(OpenFile f, long from, int len) throws IOException {
        return OpenFileReads.read(f, from, len);
    }

    private static byte[] readAll(OpenFile f) throws IOException {
        return OpenFileReads.readAll(f);
    }

    private static byte[] readAll(Path file, ContentKeys keys) throws IOException {
        return OpenFileReads.readAll(file, keys);
    }
}
