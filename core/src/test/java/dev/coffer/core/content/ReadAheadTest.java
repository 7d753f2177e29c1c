package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.crypto.AesSiv;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Decrypt-ahead ({@link ReadAhead} in {@link OpenFile}): sequential reads get their batches read and
 * decrypted by reader threads and return exactly the file's bytes, also when several threads read
 * one stream; a damaged unit ahead of the reader is reported by the read that reaches it; a write
 * overtaking a read-ahead is seen by the next read; a close during a read-ahead waits for it; a
 * failing read-ahead costs nothing but the reader's own read; dropped cleartext buffers are zeroed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReadAheadTest {
    private static final int CALL = 128 * 1024;
    private static final int SIZE = 2 * 1024 * 1024 + 4096 + 7; // many batches, and a merged last unit

    @TempDir
    Path tmp;

    private final Random random = new Random(11);

    private static ContentKeys keys(boolean authenticated) {
        return new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
    }

    private byte[] content(int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }

    /** Writes {@code content} as a new vault file and returns it reopened over an observed channel. */
    private OpenFile written(ContentKeys keys, byte[] content, ObservedChannel[] observed) throws IOException {
        Path file = tmp.resolve("f" + random.nextInt(1_000_000) + ".c9r");
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE), keys, "/dir/f.txt", false)) {
            f.write(ByteBuffer.wrap(content), 0);
        }
        observed[0] = new ObservedChannel(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE));
        return new OpenFile(observed[0], keys, "/dir/f.txt", false);
    }

    private static byte[] readAll(OpenFile f, int call) throws IOException {
        return readFrom(f, 0, call);
    }

    /** Reads {@code [start, size)} front to back in calls of {@code call} bytes. */
    private static byte[] readFrom(OpenFile f, long start, int call) throws IOException {
        ByteBuffer out = ByteBuffer.allocate((int) (f.size() - start));
        long pos = start;
        ByteBuffer chunk = ByteBuffer.allocate(call);
        while (true) {
            chunk.clear();
            int n = f.read(chunk, pos);
            if (n < 0) {
                break;
            }
            out.put(chunk.flip());
            pos += n;
        }
        return out.array();
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void sequentialReadsOfEverySizeReturnTheFileAndReadAhead(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        byte[] content = content(SIZE);
        ObservedChannel[] ch = new ObservedChannel[1];
        try (OpenFile f = written(keys, content, ch)) {
            // The reader's own reads take a little longer, so that reader threads start their jobs
            // first (a job not started when its reader comes is taken back and read by the reader).
            ch[0].callerDelayMillis = 3;
            int[][] callsAndStarts = {{CALL, 0}, {32 * 1024, 0}, {100_000, 0}, {CALL, 1000}, {4096 * 40 + 5, 77},
                {64 * 1024, 4096}, {1 << 20, 0}};
            for (int[] cs : callsAndStarts) {
                long before = f.readAheadServed();
                assertThat(readFrom(f, cs[1], cs[0])).as("calls of %d from %d", cs[0], cs[1])
                        .isEqualTo(Arrays.copyOfRange(content, cs[1], SIZE));
                assertThat(f.readAheadServed()).as("batches served, calls of %d from %d", cs[0], cs[1]).isGreaterThan(before);
            }
            // Small calls never read ahead: one unit per call costs more to hand over than it saves.
            // Their 514 reads each still leave a wrongly started job a millisecond to show up.
            ch[0].callerDelayMillis = 1;
            long before = ch[0].readAheads();
            assertThat(readAll(f, 4096)).isEqualTo(content);
            assertThat(ch[0].readAheads()).isEqualTo(before);
        }
    }

    /** A file kept open after it was read to the end (an indexer, a media server) holds no read-ahead batches. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aReadThatReachesTheEndLetsGoOfTheReadAheadBuffers(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        byte[] content = content(SIZE);
        ObservedChannel[] ch = new ObservedChannel[1];
        try (OpenFile f = written(keys, content, ch)) {
            ByteBuffer chunk = ByteBuffer.allocate(CALL);
            assertThat(f.read(chunk, 0)).isEqualTo(CALL);
            chunk.clear();
            assertThat(f.read(chunk, CALL)).isEqualTo(CALL);
            assertThat(f.holdsReadAheadBuffers()).as("reading sequentially").isTrue();
            assertThat(readAll(f, CALL)).isEqualTo(content);
            assertThat(f.holdsReadAheadBuffers()).as("after the end was read").isFalse();
        }
    }

    @Test
    void aDamagedUnitAheadOfTheReaderFailsTheReadThatReachesItNamingThePath() throws Exception {
        ContentKeys keys = keys(true);
        byte[] content = content(SIZE);
        ObservedChannel[] ch = new ObservedChannel[1];
        OpenFile f = written(keys, content, ch);
        SectorLayout layout = keys.layout();
        long damagedUnit = 70; // in the third 128 KiB call, which the second call hands out
        ByteBuffer flip = ByteBuffer.allocate(1);
        long at = layout.storedUnitOffset(damagedUnit) + 40;
        ch[0].read(flip, at);
        flip.put(0, (byte) (flip.get(0) ^ 1)).clear();
        ch[0].write(flip, at);
        try (f) {
            ByteBuffer chunk = ByteBuffer.allocate(CALL);
            for (int call = 0; call < 2; call++) {
                chunk.clear();
                assertThat(f.read(chunk, (long) call * CALL)).isEqualTo(CALL);
                assertThat(chunk.array()).isEqualTo(Arrays.copyOfRange(content, call * CALL, (call + 1) * CALL));
            }
            // The second call handed the damaged batch to a reader thread: wait until it has read it.
            ch[0].awaitEvent("ahead " + layout.storedUnitOffset(2L * CALL / SectorLayout.SECTOR) + " ");
            chunk.clear();
            assertThatThrownBy(() -> f.read(chunk, 2L * CALL)).isInstanceOf(DamagedFileException.class)
                    .hasMessageContaining("/dir/f.txt").hasMessageContaining("unit 70");
            // Other ranges of the file still read.
            chunk.clear();
            assertThat(f.read(chunk, 3L * CALL)).isEqualTo(CALL);
            assertThat(chunk.array()).isEqualTo(Arrays.copyOfRange(content, 3 * CALL, 4 * CALL));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aWriteOvertakingAReadAheadIsSeenByTheNextRead(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        byte[] content = content(SIZE);
        ObservedChannel[] ch = new ObservedChannel[1];
        try (OpenFile f = written(keys, content, ch)) {
            ByteBuffer chunk = ByteBuffer.allocate(CALL);
            // Each round reads two calls on from where the last one ended, so every read after the
            // file's first continues the last and reads ahead.
            for (int round = 0; round < 7; round++) {
                // Even rounds: the write lands while the read-ahead still reads; odd: after it has read.
                ch[0].readAheadDelayMillis = round % 2 == 0 ? 5 : 0;
                int call = 2 * round;
                // A write elsewhere ends the jobs handed out so far, so the read below decrypts its
                // batch itself and hands the next one out (it continues the last read).
                f.write(ByteBuffer.wrap(content, 0, 1), 0);
                String aheadOfNext = "ahead " + keys.layout().storedUnitOffset((call + 1L) * CALL / SectorLayout.SECTOR) + " ";
                long seen = ch[0].count(aheadOfNext);
                chunk.clear();
                assertThat(f.read(chunk, (long) call * CALL)).isEqualTo(CALL);
                if (round % 2 == 1) {
                    ch[0].awaitEvents(aheadOfNext, seen + 1);
                }
                // Another channel of the same file writes into the range being read ahead.
                int writeAt = (call + 1) * CALL + random.nextInt(CALL - 64);
                byte[] patch = content(1 + random.nextInt(64));
                f.write(ByteBuffer.wrap(patch), writeAt);
                System.arraycopy(patch, 0, content, writeAt, patch.length);
                if (round % 4 == 3) {
                    f.setSize(SIZE - 1000L * round); // a truncate overtaking it too
                    f.setSize(SIZE);
                    Arrays.fill(content, SIZE - 1000 * round, SIZE, (byte) 0);
                }
                chunk.clear();
                int n = f.read(chunk, (long) (call + 1) * CALL);
                assertThat(n).isEqualTo(CALL);
                assertThat(chunk.array()).as("round " + round)
                        .isEqualTo(Arrays.copyOfRange(content, (call + 1) * CALL, (call + 2) * CALL));
            }
            ch[0].readAheadDelayMillis = 0;
            assertThat(readAll(f, CALL)).isEqualTo(content);
            assertThat(ch[0].readAheads()).isGreaterThanOrEqualTo(3);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aCloseDuringAReadAheadWaitsForItBeforeClosingTheChannel(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        byte[] content = content(SIZE);
        ObservedChannel[] ch = new ObservedChannel[1];
        OpenFile f = written(keys, content, ch);
        ch[0].readAheadDelayMillis = 200;
        ByteBuffer chunk = ByteBuffer.allocate(CALL);
        assertThat(f.read(chunk, 0)).isEqualTo(CALL);
        chunk.clear();
        assertThat(f.read(chunk, CALL)).isEqualTo(CALL); // continues the first: hands out the next batch
        ch[0].awaitEvent("ahead-start "); // the job is inside its (slow) read
        f.close();
        List<String> events = List.copyOf(ch[0].events);
        assertThat(events).last().isEqualTo("close");
        // Each job read before the close, or never started (a job not started by then never will).
        assertThat(events).filteredOn(e -> e.startsWith("ahead ")).hasSizeBetween(1, ReadAhead.DEPTH)
                .allMatch(e -> !e.endsWith("after-close"));
        chunk.clear();
        assertThatThrownBy(() -> f.read(chunk, 2L * CALL)).isInstanceOf(ClosedChannelException.class);
        // The file's own cryptor and the spares its jobs used (one each, or one used in turn) went back to the pool.
        assertThat(keys.idleCount()).as("cryptors back in the pool").isBetween(2, 1 + ReadAhead.DEPTH);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aFailingReadAheadIsDroppedAndTheReaderReadsItself(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        byte[] content = content(SIZE);
        ObservedChannel[] ch = new ObservedChannel[1];
        try (OpenFile f = written(keys, content, ch)) {
            ch[0].failReadAheads = true;
            ByteBuffer chunk = ByteBuffer.allocate(CALL);
            assertThat(f.read(chunk, 0)).isEqualTo(CALL);
            chunk.clear();
            assertThat(f.read(chunk, CALL)).isEqualTo(CALL); // continues the first: hands out the next batch
            ch[0].awaitEvent("ahead-failed ");
            assertThat(readAll(f, CALL)).isEqualTo(content);
        }
    }

    /**
     * Several threads reading one file in turns, out of order within a few batches (as FUSE's workers
     * do) get the file; once reads ran in parallel the file hands out nothing, not even to a lone
     * sequential reader afterwards (those readers already use every core).
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void parallelReadersGetTheFileAndTurnTheReadAheadOff(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        byte[] content = content(SIZE);
        ObservedChannel[] ch = new ObservedChannel[1];
        try (OpenFile f = written(keys, content, ch)) {
            ch[0].callerDelayMillis = 1; // so that the readers overlap
            for (int round = 0; round < 3; round++) {
                byte[] got = new byte[SIZE];
                AtomicLong nextCall = new AtomicLong();
                ExecutorService pool = Executors.newFixedThreadPool(3);
                List<Future<?>> readers = new ArrayList<>();
                for (int t = 0; t < 3; t++) {
                    readers.add(pool.submit(() -> {
                        ByteBuffer chunk = ByteBuffer.allocate(CALL);
                        for (long call; (call = nextCall.getAndIncrement()) * CALL < SIZE; ) {
                            chunk.clear();
                            int n = f.read(chunk, call * CALL);
                            System.arraycopy(chunk.array(), 0, got, (int) (call * CALL), n);
                        }
                        return null;
                    }));
                }
                for (Future<?> r : readers) {
                    r.get();
                }
                pool.shutdown();
                assertThat(got).as("round " + round).isEqualTo(content);
            }
            assertThat(f.holdsReadAheadBuffers()).as("after the end was read").isFalse();
            long served = f.readAheadServed();
            ByteBuffer chunk = ByteBuffer.allocate(CALL);
            for (int call = 0; call < 4; call++) {
                chunk.clear();
                assertThat(f.read(chunk, (long) call * CALL)).isEqualTo(CALL);
            }
            assertThat(f.holdsReadAheadBuffers()).as("a lone sequential reader after parallel reads").isFalse();
            assertThat(f.readAheadServed()).isEqualTo(served);
        }
    }

    @Test
    void batchesAreHandedOutAheadOfAStreamAndInsideALargeReadAndDroppedBuffersAreZeroed() throws Exception {
        ContentKeys keys = keys(false);
        ObservedChannel[] ch = new ObservedChannel[1];
        try (OpenFile f = written(keys, content(SIZE), ch)) {
            List<byte[]> cleartexts = Collections.synchronizedList(new ArrayList<>());
            SectorLayout layout = keys.layout();
            ReadAhead ahead = new ReadAhead(ch[0], layout, 32, (stored, first, last, size, cleartext) -> {
                cleartexts.add(cleartext);
                Arrays.fill(cleartext, 0, (int) (last - first + 1) * SectorLayout.SECTOR, (byte) 0x5a);
                return true;
            });
            byte[] out = new byte[CALL];
            // A file's first read starts no stream (a program peeking at a file's start and closing it).
            ahead.handOut(0, 31, 31, 0, CALL, SIZE);
            assertThat(ahead.pending()).isZero();
            ahead.readDone(0, CALL);
            // The read that continues it, about to decrypt its batch itself, hands out the next ones.
            ahead.handOut(32, 63, 63, CALL, 2L * CALL, SIZE);
            assertThat(ahead.pending()).isEqualTo(ReadAhead.DEPTH);
            awaitRead(ch[0], layout, 64);
            ahead.readDone(CALL, 2L * CALL);
            assertThat(ahead.copyTo(64, 95, 2L * CALL, 3L * CALL, out, 0)).isTrue();
            assertThat(out).containsOnly((byte) 0x5a);
            assertThat(ahead.copyTo(0, 31, 0, CALL, out, 0)).as("no job for a batch behind").isFalse();
            ahead.readDone(2L * CALL, 3L * CALL);
            // A read elsewhere is no stream: nothing ahead of it, and the old stream's jobs go.
            ahead.handOut(8 * 32, 9 * 32 - 1, 9 * 32 - 1, 8L * CALL, 9L * CALL, SIZE);
            assertThat(ahead.pending()).isZero();
            ahead.readDone(8L * CALL, 9L * CALL);
            // The read after it continues it: a stream starts there.
            ahead.handOut(9 * 32, 10 * 32 - 1, 10 * 32 - 1, 9L * CALL, 10L * CALL, SIZE);
            assertThat(ahead.pending()).isEqualTo(ReadAhead.DEPTH);
            awaitRead(ch[0], layout, 10 * 32);
            assertThat(ahead.copyTo(10 * 32, 11 * 32 - 1, 10L * CALL, 11L * CALL, out, 0)).isTrue();
            ahead.readDone(9L * CALL, 10L * CALL);
            // A large read elsewhere hands out its own later batches, stream or not; reads of half a
            // batch are served from the same job (the grid), which goes once the second half is copied.
            ahead.handOut(12 * 32, 13 * 32 - 1, 16 * 32 - 1, 12L * CALL, 16L * CALL, SIZE);
            awaitRead(ch[0], layout, 13 * 32);
            byte[] large = new byte[4 * CALL];
            assertThat(ahead.copyTo(13 * 32, 13 * 32 + 15, 12L * CALL, 16L * CALL, large, 0)).isTrue();
            int jobsWithTheHalfCopied = ahead.pending();
            assertThat(ahead.copyTo(13 * 32 + 16, 14 * 32 - 1, 12L * CALL, 16L * CALL, large, 0)).isTrue();
            assertThat(ahead.pending()).as("the job is gone once its last unit was copied").isEqualTo(jobsWithTheHalfCopied - 1);
            assertThat(Arrays.copyOfRange(large, CALL, 2 * CALL)).containsOnly((byte) 0x5a);
            assertThat(Arrays.copyOfRange(large, 0, CALL)).as("the reader's own batch").containsOnly((byte) 0);
            assertThat(ahead.served()).isEqualTo(4);
            ahead.drop();
            assertThat(ahead.holdsBuffers()).isFalse();
            assertThat(cleartexts).isNotEmpty().allSatisfy(c -> assertThat(c).containsOnly((byte) 0));
            assertThat(f.size()).as("the file itself is untouched").isEqualTo(SIZE);
        }
    }

    /**
     * A stream the reader jumps away from: its jobs' cleartext is zeroed as soon as each job has
     * ended (one that ended before, and one still running then), not only at the next write or close.
     */
    @Test
    void jobsAStreamJumpedAwayFromAreZeroedOnceTheyEndWithoutWaitingForAWriteOrClose() throws Exception {
        ContentKeys keys = keys(false);
        ObservedChannel[] ch = new ObservedChannel[1];
        try (OpenFile f = written(keys, content(SIZE), ch)) {
            List<byte[]> cleartexts = Collections.synchronizedList(new ArrayList<>());
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicBoolean hold = new java.util.concurrent.atomic.AtomicBoolean();
            SectorLayout layout = keys.layout();
            ReadAhead ahead = new ReadAhead(ch[0], layout, 32, (stored, first, last, size, cleartext) -> {
                cleartexts.add(cleartext);
                Arrays.fill(cleartext, 0, (int) (last - first + 1) * SectorLayout.SECTOR, (byte) 0x5a);
                if (hold.get()) {
                    try {
                        release.await(); // still running when the reader jumps away
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return true;
            });
            byte[] out = new byte[CALL];
            ahead.readDone(0, CALL);
            ahead.handOut(32, 63, 63, CALL, 2L * CALL, SIZE);
            ahead.readDone(CALL, 2L * CALL);
            awaitRead(ch[0], layout, 64);
            assertThat(ahead.copyTo(64, 95, 2L * CALL, 3L * CALL, out, 0)).isTrue(); // served: its pair is the spare now
            ahead.readDone(2L * CALL, 3L * CALL);
            ahead.handOut(96, 127, 127, 3L * CALL, 4L * CALL, SIZE);
            awaitZeroOr(() -> cleartexts.size() >= 1 + ReadAhead.DEPTH);
            Thread.sleep(100); // the jobs signal their end after decrypting
            ahead.readDone(3L * CALL, 4L * CALL);

            ahead.handOut(8 * 32, 9 * 32 - 1, 9 * 32 - 1, 8L * CALL, 9L * CALL, SIZE); // a jump: the stream's jobs go
            assertThat(ahead.pending()).isZero();
            assertThat(cleartexts).as("ended jobs and the idle spare, at the jump").allSatisfy(c -> assertThat(c).containsOnly((byte) 0));
            ahead.readDone(8L * CALL, 9L * CALL);

            hold.set(true);
            int before = cleartexts.size();
            ahead.handOut(9 * 32, 10 * 32 - 1, 10 * 32 - 1, 9L * CALL, 10L * CALL, SIZE); // a stream starts again
            assertThat(ahead.pending()).isEqualTo(ReadAhead.DEPTH);
            awaitZeroOr(() -> cleartexts.size() >= before + 1);
            ahead.readDone(9L * CALL, 10L * CALL);
            ahead.handOut(2 * 32, 3 * 32 - 1, 3 * 32 - 1, 2L * CALL, 3L * CALL, SIZE); // jumps away while a job runs
            release.countDown();
            byte[] running = cleartexts.get(before);
            awaitZeroOr(() -> isZero(running));
            assertThat(running).as("the job that was running at the jump, once it ended").containsOnly((byte) 0);
            assertThat(f.size()).isEqualTo(SIZE);
            ahead.drop();
        }
    }

    private static boolean isZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    /** Polls {@code condition} for up to 5 s. */
    private static void awaitZeroOr(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean() && System.nanoTime() < until) {
            Thread.sleep(5);
        }
    }

    /** Waits until a reader thread has read the batch at {@code unit} (a job not started when its reader comes is the reader's own). */
    private static void awaitRead(ObservedChannel ch, SectorLayout layout, long unit) throws InterruptedException {
        ch.awaitEvent("ahead " + layout.storedUnitOffset(unit) + " ");
    }
}
