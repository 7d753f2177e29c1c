package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.testing.DelegatingChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read streams ({@link ReadStream}, {@link StreamingReads}) through {@link FileOps}, without a mount:
 * sequential whole requests are answered from the stream with the file's bytes, and nothing a change
 * made through the mount, a failure, parallel requests or a release could do makes them answer wrongly.
 */
class StreamingReadsTest {
    private static final int REQUEST = 128 * 1024;
    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 1;
    private static final int O_TRUNC = 01000;

    /** Streamers that never end for idleness while a test looks at them (a loaded CI machine pauses). */
    private static final StreamTiming PATIENT = new StreamTiming(StreamTiming.MOUNT.maxAgeNanos(), TimeUnit.SECONDS.toNanos(30));

    @TempDir
    Path tmp;

    private final OpenFileTable handles = new OpenFileTable();
    private final ContentChanges changes = new ContentChanges();
    /** Stops every stream the test started (closing twice is harmless). */
    private final List<Runnable> leftovers = new ArrayList<>();
    private FileOps files;
    private TreeOps tree;
    private Path file;
    private byte[] content;

    @BeforeEach
    void createFile() throws IOException {
        assertThat(java.lang.Runtime.getRuntime().availableProcessors()).as("read streams need two cores; this machine has fewer").isGreaterThanOrEqualTo(2);
        files = fileOps(PATIENT);
        tree = new TreeOps(new Backing(tmp, 0, 0), NameForm.NFC, changes);
        content = new byte[16 << 20];
        new Random(7).nextBytes(content);
        file = tmp.resolve("big");
        Files.write(file, content);
    }

    @Test
    void sequentialWholeRequestsAreAnsweredByTheStreamWithTheFilesBytes() throws IOException {
        long fh = files.open("/big", O_RDONLY);
        assertThat(readSequentially(fh, 0, content.length)).isEqualTo(content);
        // The first requests (and a miss or two while the stream starts) are read directly.
        assertThat(files.streamedReads()).isGreaterThan(content.length / REQUEST - 8);
        files.release(fh);
    }

    @Test
    void requestsThatStraddleSlotsAndShortRequestsAreServedToo() throws IOException {
        long fh = files.open("/big", O_RDONLY);
        Pointer buf = buffer();
        // Two whole requests start the stream at 256 KiB; then requests of odd sizes that cross slot edges.
        byte[] got = new byte[content.length];
        long pos = 0;
        int[] sizes = {REQUEST, REQUEST, 100_000, REQUEST, 70_000, REQUEST, REQUEST, 4096, REQUEST};
        for (int i = 0; pos < content.length; i++) {
            int size = (int) Math.min(sizes[i % sizes.length], content.length - pos);
            int n = files.read(fh, buf, size, pos);
            assertThat(n).isEqualTo(size);
            buf.get(0, got, (int) pos, n);
            pos += n;
        }
        assertThat(got).isEqualTo(content);
        assertThat(files.streamedReads()).isGreaterThan(50);
        files.release(fh);
    }

    @Test
    void aWriteThroughAnotherHandleIsSeenByTheNextRequest() throws Exception {
        long reader = readerStreamingPastOneMiB();
        long streamedBefore = files.streamedReads();
        // The stream has read ahead of 1 MiB by now; change bytes it holds.
        byte[] changed = new byte[REQUEST];
        java.util.Arrays.fill(changed, (byte) 0x5A);
        long writer = files.open("/big", O_WRONLY);
        Pointer src = buffer();
        src.put(0, changed, 0, changed.length);
        files.write(writer, src, changed.length, (1 << 20) + REQUEST, false);
        System.arraycopy(changed, 0, content, (1 << 20) + REQUEST, changed.length);

        assertThat(readSequentially(reader, 1 << 20, 4 << 20)).isEqualTo(slice(1 << 20, 4 << 20));
        assertThat(files.streamedReads()).as("streaming went on after the change").isGreaterThan(streamedBefore + 8);
        files.release(writer);
        files.release(reader);
    }

    @Test
    void aTruncateIsSeenByTheNextRequest() throws Exception {
        long reader = readerStreamingPastOneMiB();
        files.truncate("/big", (1 << 20) + 1000);
        Pointer buf = buffer();
        assertThat(files.read(reader, buf, REQUEST, 1 << 20)).isEqualTo(1000);
        assertThat(files.read(reader, buf, REQUEST, (1 << 20) + 1000)).isZero();
        files.release(reader);
    }

    @Test
    void theRequestThatReachesAFailedReadReportsTheFailure() throws IOException {
        // Beyond the ring's reach from the stream's start (32 slots of 128 KiB): the streamers can only
        // get to the failing unit after the reader has taken slots from them. Nearer (3 MiB), both
        // streamers could fail, and so end the stream, before the reader's first request reached it,
        // leaving every request to be read directly (it happened once on a loaded machine).
        long failAt = 8L << 20;
        FileChannel failing = new DelegatingChannel(FileChannel.open(file, StandardOpenOption.READ)) {
            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                if (position + dst.remaining() > failAt) {
                    throw new IOException("unit at " + failAt + " failed authentication");
                }
                return d.read(dst, position);
            }
        };
        long fh = handles.add(failing, false);
        assertThat(readSequentially(fh, 0, (int) failAt - REQUEST)).isEqualTo(slice(0, (int) failAt - REQUEST));
        assertThat(files.streamedReads()).isPositive();
        assertThatThrownBy(() -> files.read(fh, buffer(), REQUEST, failAt - REQUEST / 2))
                .isInstanceOf(IOException.class).hasMessageContaining("failed authentication");
        files.release(fh);
    }

    @Test
    void requestsFromSeveralThreadsAtOnceGetTheirOwnBytes() throws Exception {
        long fh = files.open("/big", O_RDONLY);
        readSequentially(fh, 0, 2 * REQUEST); // starts the stream
        AtomicLong next = new AtomicLong(2 * REQUEST);
        byte[] got = new byte[content.length];
        System.arraycopy(content, 0, got, 0, 2 * REQUEST);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<Void>> workers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                workers.add(pool.submit(() -> {
                    Pointer buf = buffer();
                    for (long pos; (pos = next.getAndAdd(REQUEST)) < content.length; ) {
                        int n = files.read(fh, buf, REQUEST, pos);
                        assertThat(n).isEqualTo(REQUEST);
                        synchronized (got) {
                            buf.get(0, got, (int) pos, n);
                        }
                    }
                    return null;
                }));
            }
            for (Future<Void> w : workers) {
                w.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(got).isEqualTo(content);
        assertThat(files.streamedReads()).as("most requests answered by the stream").isGreaterThan(content.length / REQUEST / 2);
        files.release(fh);
    }

    @Test
    void randomAccessStartsNoStream() throws IOException {
        long fh = files.open("/big", O_RDONLY);
        Pointer buf = buffer();
        Random r = new Random(3);
        for (int i = 0; i < 200; i++) {
            long pos = (long) r.nextInt(content.length / REQUEST) * REQUEST;
            assertThat(files.read(fh, buf, REQUEST, pos)).isEqualTo(REQUEST);
            byte[] got = new byte[REQUEST];
            buf.get(0, got, 0, REQUEST);
            assertThat(got).isEqualTo(slice((int) pos, REQUEST));
        }
        assertThat(files.streamedReads()).isZero();
        files.release(fh);
    }

    @Test
    void closingAStreamStopsItsThreadsAndZeroesItsRing() throws Exception {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        Semaphore rings = new Semaphore(1);
        StreamingReads reads = started(new StreamingReads(ch, new ContentChanges(), rings, PATIENT));
        Pointer buf = buffer();
        for (long pos = 0; pos < 3 * REQUEST; pos += REQUEST) {
            long before = reads.streamsStarted();
            if (reads.serve(buf, REQUEST, pos) < 0) {
                reads.readDirectly(pos, REQUEST, REQUEST, before);
            }
        }
        ReadStream stream = reads.stream();
        assertThat(stream).as("two whole sequential requests start a stream").isNotNull();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (stream.ringZeroed() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(stream.ringZeroed()).as("the ring holds file bytes while streaming").isFalse();
        List<byte[]> arrays = stream.slotArrays();
        reads.close();
        assertThat(stream.streaming()).isFalse();
        assertThat(arrays).as("every slot array the stream made is zeroed").allSatisfy(a -> assertThat(a).containsOnly(0));
        assertThat(stream.slotArrays()).as("and dropped: a handle kept open holds no ring").isEmpty();
        assertThat(rings.availablePermits()).as("the ring's permit is back").isEqualTo(1);
        ch.close();
    }

    @Test
    void aRequestInFlightWhenTheStreamStartsDoesNotReplaceIt() throws Exception {
        // The kernel has two requests of a file in flight: the one after the request that starts the
        // stream found no stream and is read directly while the stream begins at its offset. It
        // once replaced the stream, and the next in-flight request the new one, until the handle gave
        // up streaming: a mount read a whole file without a single streamed request.
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            StreamingReads reads = started(new StreamingReads(ch, new ContentChanges(), new Semaphore(1), PATIENT));
            Pointer buf = buffer();
            for (long pos = 0; pos < 2 * REQUEST; pos += REQUEST) {
                long before = reads.streamsStarted();
                assertThat(reads.serve(buf, REQUEST, pos)).isEqualTo(-1);
                reads.readDirectly(pos, REQUEST, REQUEST, before);
            }
            long thirdBefore = reads.streamsStarted();
            assertThat(reads.serve(buf, REQUEST, 2 * REQUEST)).isEqualTo(-1);
            long fourthBefore = reads.streamsStarted();
            assertThat(reads.serve(buf, REQUEST, 3 * REQUEST)).as("in flight before any stream").isEqualTo(-1);
            reads.readDirectly(2 * REQUEST, REQUEST, REQUEST, thirdBefore);
            ReadStream stream = reads.stream();
            assertThat(stream).as("the third sequential request started a stream at the fourth").isNotNull();

            reads.readDirectly(3 * REQUEST, REQUEST, REQUEST, fourthBefore);
            assertThat(reads.stream()).as("the fourth, read directly, kept the stream").isSameAs(stream);
            for (long pos = 4 * REQUEST; pos < 12 * REQUEST; pos += REQUEST) {
                assertThat(reads.serve(buf, REQUEST, pos)).as("served by the stream at %d", pos).isEqualTo(REQUEST);
                byte[] got = new byte[REQUEST];
                buf.get(0, got, 0, REQUEST);
                assertThat(got).isEqualTo(slice((int) pos, REQUEST));
            }
            assertThat(reads.stream()).isSameAs(stream);
            reads.close();
        }
    }

    @Test
    void aStreamMakesOnlyTheSlotArraysItFillsAndZeroesThemAtTheEnd() throws Exception {
        assertThat(ReadStream.SLOTS % ReadStream.STREAMERS).as("each ring position belongs to one streamer").isZero();
        int slots = 20; // 2.5 MiB: fewer slots than the ring has
        Path shortFile = tmp.resolve("short");
        Files.write(shortFile, java.util.Arrays.copyOf(content, slots * REQUEST));
        try (FileChannel ch = FileChannel.open(shortFile, StandardOpenOption.READ)) {
            Semaphore rings = new Semaphore(1);
            rings.acquire();
            ReadStream stream = started(ReadStream.start(ch, changes, 0, rings::release, PATIENT));
            try {
                // Every slot, not only the last: each streamer reads its own slots, and on a busy
                // machine one of them can be far behind the other.
                for (int k = 0; k < slots; k++) {
                    awaitHolds(stream, (long) k * REQUEST);
                }
                List<byte[]> arrays = stream.slotArrays();
                // The file's slots, and at most one more per streamer (the empty slot that finds the end).
                assertThat(arrays).hasSizeBetween(slots, slots + ReadStream.STREAMERS).hasSizeLessThan(ReadStream.SLOTS);
                Pointer buf = buffer();
                byte[] got = new byte[REQUEST];
                for (int k = 0; k < slots; k++) {
                    assertThat(stream.serve(buf, REQUEST, (long) k * REQUEST)).isEqualTo(REQUEST);
                    buf.get(0, got, 0, REQUEST);
                    assertThat(got).isEqualTo(java.util.Arrays.copyOfRange(content, k * REQUEST, (k + 1) * REQUEST));
                }
                awaitEnded(stream);
                assertThat(stream.streaming()).as("the stream ends once its end was served").isFalse();
                assertThat(arrays).as("every slot array it made is zeroed").allSatisfy(a -> assertThat(a).containsOnly(0));
                assertThat(stream.slotArrays()).isEmpty();
                assertThat(rings.availablePermits()).isEqualTo(1);
            } finally {
                stream.close(); // a failed check must not leave its streamers waiting for 30 s (others count them)
            }
        }
    }

    @Test
    void aStreamClosedBeforeItMadeAnArrayEndsCleanly() throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            Semaphore rings = new Semaphore(1);
            rings.acquire();
            ReadStream stream = started(ReadStream.start(ch, changes, 0, rings::release, PATIENT));
            stream.close();
            assertThat(stream.streaming()).isFalse();
            assertThat(stream.slotArrays()).isEmpty();
            assertThat(stream.serve(buffer(), REQUEST, 0)).isEqualTo(-1);
            assertThat(rings.availablePermits()).isEqualTo(1);
        }
    }

    @Test
    void atMostMaxStreamsFilesStreamAtOnceAndAReleasedHandleGivesItsRingBack() throws IOException {
        List<Long> readers = new ArrayList<>();
        for (int i = 0; i <= FileOps.MAX_STREAMS; i++) {
            long fh = files.open("/big", O_RDONLY);
            readSequentially(fh, 0, 3 * REQUEST);
            readers.add(fh);
        }
        long last = readers.get(FileOps.MAX_STREAMS);
        for (long fh : readers.subList(0, FileOps.MAX_STREAMS)) {
            assertThat(files.readsOf(fh).stream()).isNotNull();
        }
        assertThat(files.readsOf(last).stream()).as("one more than the mount allows").isNull();
        assertThat(readSequentially(last, 3 * REQUEST, 2 * REQUEST)).isEqualTo(slice(3 * REQUEST, 2 * REQUEST));

        files.release(readers.get(0));
        assertThat(readSequentially(last, 5 * REQUEST, 4 * REQUEST)).isEqualTo(slice(5 * REQUEST, 4 * REQUEST));
        assertThat(files.readsOf(last).stream()).as("the released handle's ring went to the waiting reader").isNotNull();
        for (long fh : readers.subList(1, readers.size())) {
            files.release(fh);
        }
        assertThat(files.freeRings()).as("every released handle gave its ring back").isEqualTo(FileOps.MAX_STREAMS);
    }

    @Test
    void aStreamThatServedTheEndOfItsFileGivesItsRingBackWhileTheFileStaysOpen() throws Exception {
        List<Long> readers = new ArrayList<>();
        for (int i = 0; i < FileOps.MAX_STREAMS; i++) {
            long fh = files.open("/big", O_RDONLY);
            assertThat(readSequentially(fh, 0, content.length)).isEqualTo(content);
            ReadStream ended = files.readsOf(fh).stream();
            assertThat(ended).isNotNull();
            // The streamer that found the end may finish the stream a moment after the last request.
            awaitEnded(ended);
            assertThat(ended.streaming()).isFalse();
            assertThat(ended.ringZeroed()).as("the ring of a stream that served the end is zeroed").isTrue();
            readers.add(fh); // kept open, as viewers and players do
        }
        long another = files.open("/big", O_RDONLY);
        readSequentially(another, 0, 3 * REQUEST);
        assertThat(files.readsOf(another).stream()).as("rings of ended streams are free again").isNotNull();
        files.release(another);
        for (long fh : readers) {
            files.release(fh);
        }
        assertThat(files.freeRings()).isEqualTo(FileOps.MAX_STREAMS);
    }

    @Test
    void anOTruncOpenACreateAndARenameOverTheFileAreSeenByTheNextRequest() throws Exception {
        long reader = readerStreamingPastOneMiB();
        long truncating = files.open("/big", O_WRONLY | O_TRUNC);
        assertThat(files.read(reader, buffer(), REQUEST, 1 << 20)).as("after an O_TRUNC open").isZero();
        files.release(truncating);
        files.release(reader);

        Files.write(file, content);
        reader = readerStreamingPastOneMiB();
        files.release(files.create("/big", 0644, O_WRONLY | O_TRUNC));
        assertThat(files.read(reader, buffer(), REQUEST, 1 << 20)).as("after a create with O_TRUNC").isZero();
        files.release(reader);

        Files.write(file, content);
        byte[] other = new byte[content.length];
        java.util.Arrays.fill(other, (byte) 7);
        Files.write(tmp.resolve("other"), other);
        reader = readerStreamingPastOneMiB();
        // Overwrite the streamed file's bytes in place, then rename another file over its name: a
        // plain folder's handle keeps the old file, whose bytes did change.
        try (FileChannel w = FileChannel.open(file, StandardOpenOption.WRITE)) {
            w.write(ByteBuffer.wrap(other, 0, REQUEST), (1 << 20) + REQUEST);
        }
        tree.rename("/other", "/big");
        Pointer buf = buffer();
        assertThat(files.read(reader, buf, REQUEST, (1 << 20) + REQUEST)).isEqualTo(REQUEST);
        byte[] got = new byte[REQUEST];
        buf.get(0, got, 0, REQUEST);
        assertThat(got).as("after a rename").containsOnly((byte) 7);
        files.release(reader);
    }

    @Test
    void aSlotIsNotServedOnceOlderThanTheAgeLimit() throws Exception {
        StreamTiming shortAge = new StreamTiming(TimeUnit.MILLISECONDS.toNanos(50), TimeUnit.SECONDS.toNanos(30));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ReadStream stream = started(ReadStream.start(ch, changes, 0, () -> { }, shortAge));
            awaitHolds(stream, REQUEST);
            // A change behind the mount's back (another program on the vault folder) cannot be counted.
            byte[] changed = new byte[REQUEST];
            java.util.Arrays.fill(changed, (byte) 9);
            try (FileChannel w = FileChannel.open(file, StandardOpenOption.WRITE)) {
                w.write(ByteBuffer.wrap(changed), REQUEST);
            }
            Thread.sleep(100);
            assertThat(stream.serve(buffer(), REQUEST, REQUEST)).as("a slot older than the limit").isEqualTo(-1);
            assertThat(stream.streaming()).as("refused for its age, not because the stream ended").isTrue();
            stream.close();
        }
    }

    @Test
    void aSlotReadWhileAChangeRanIsNeverServed() throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            changes.begin(); // a write through the mount is under way
            ReadStream stream = started(ReadStream.start(ch, changes, 0, () -> { }, PATIENT));
            // Both slots, each read by its own streamer: on a busy machine slot 0's streamer can still
            // be waiting for a CPU when slot 1 is there, and a slot read after end() is rightly served.
            awaitHolds(stream, 0);
            awaitHolds(stream, REQUEST);
            try (FileChannel w = FileChannel.open(file, StandardOpenOption.WRITE)) {
                w.write(ByteBuffer.wrap(new byte[REQUEST]), REQUEST);
            }
            changes.end(); // it took effect after the slots were read
            assertThat(stream.serve(buffer(), REQUEST, 0)).isEqualTo(-1);
            assertThat(stream.serve(buffer(), REQUEST, REQUEST)).isEqualTo(-1);
            assertThat(stream.streaming()).isTrue();
            stream.close();
        }
    }

    @Test
    void aRequestForAFreedSlotWhoseRefillFailsMissesInsteadOfWaiting() throws Exception {
        long failFrom = (long) ReadStream.SLOTS * REQUEST; // slot SLOTS reuses slot 0's place in the ring
        FileChannel failing = new DelegatingChannel(FileChannel.open(file, StandardOpenOption.READ)) {
            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                if (position >= failFrom && position < failFrom + REQUEST) { // slot SLOTS only: the other streamer goes on
                    throw new IOException("unit failed authentication");
                }
                return d.read(dst, position);
            }
        };
        Semaphore rings = new Semaphore(1);
        rings.acquire();
        ReadStream stream = started(ReadStream.start(failing, changes, 0, rings::release,
                new StreamTiming(TimeUnit.SECONDS.toNanos(30), TimeUnit.SECONDS.toNanos(30))));
        Pointer buf = buffer();
        // The second half of slot 0 arrives first (requests finish out of order), then slots 1 to SLOTS-1:
        // slot 0 counts as copied out, its place goes to slot SLOTS, whose read fails.
        assertThat(stream.serve(buf, REQUEST / 2, REQUEST / 2)).isEqualTo(REQUEST / 2);
        for (long k = 1; k < ReadStream.SLOTS; k++) {
            assertThat(stream.serve(buf, REQUEST, k * REQUEST)).isEqualTo(REQUEST);
        }
        // Until its streamer takes the place for slot SLOTS, slot 0 is still whole in the ring and
        // rightly served; on a busy machine that streamer may not have had a CPU since slot SLOTS-2.
        awaitPlaceTaken(stream, 0);
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
                () -> assertThat(stream.serve(buf, REQUEST / 2, 0)).as("the late first half of slot 0").isEqualTo(-1));
        // It missed at once, not after the other streamer gave up waiting for readers (which ends the stream).
        assertThat(stream.streaming()).as("the other streamer still waits for readers").isTrue();
        stream.close();
        assertThat(rings.availablePermits()).isEqualTo(1);
        failing.close();
    }

    @Test
    void aSlotARequestWaitsForIsNotFreedByLaterRequestsServedMeanwhile() throws Exception {
        // Threads of one program reading the same handle have more requests in flight than the
        // kernel's read-ahead; when one streamer falls behind (on a busy machine), the other's slots
        // are served past the slot a request waits for. That slot was freed as if the kernel had
        // skipped it, the waiting request missed, and so on for every slot of the slow streamer:
        // half the requests of StreamingReadsTest's three threads were read directly.
        long slow = 4; // read by streamer 0, held back until the later requests were served
        CountDownLatch go = new CountDownLatch(1);
        FileChannel holding = new DelegatingChannel(FileChannel.open(file, StandardOpenOption.READ)) {
            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                if (position >= slow * REQUEST && position < (slow + 1) * REQUEST) {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        throw new java.io.InterruptedIOException();
                    }
                }
                return d.read(dst, position);
            }
        };
        ReadStream stream = started(ReadStream.start(holding, changes, 0, () -> { }, PATIENT));
        ExecutorService waiter = Executors.newSingleThreadExecutor();
        try {
            Pointer buf = buffer();
            for (long k = 0; k < slow; k++) {
                assertThat(stream.serve(buf, REQUEST, k * REQUEST)).isEqualTo(REQUEST);
            }
            java.util.concurrent.atomic.AtomicReference<Thread> waiting = new java.util.concurrent.atomic.AtomicReference<>();
            Future<byte[]> late = waiter.submit(() -> {
                waiting.set(Thread.currentThread());
                Pointer own = buffer();
                if (stream.serve(own, REQUEST, slow * REQUEST) != REQUEST) {
                    return null;
                }
                byte[] got = new byte[REQUEST];
                own.get(0, got, 0, REQUEST);
                return got;
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (waiting.get() == null || waiting.get().getState() != Thread.State.TIMED_WAITING) {
                assertThat(System.nanoTime()).as("the request for slot %d waits for it", slow).isLessThan(deadline);
                Thread.sleep(1);
            }
            // Slots slow+1 and slow+3 (the other streamer's): the second lies more than two behind.
            assertThat(stream.serve(buf, REQUEST, (slow + 1) * REQUEST)).isEqualTo(REQUEST);
            assertThat(stream.serve(buf, REQUEST, (slow + 3) * REQUEST)).isEqualTo(REQUEST);
            go.countDown();
            assertThat(late.get(10, TimeUnit.SECONDS)).as("the waiting request served by the stream")
                    .isEqualTo(slice((int) (slow * REQUEST), REQUEST));
        } finally {
            go.countDown();
            waiter.shutdownNow();
            stream.close();
            holding.close();
        }
    }

    @Test
    void theRingMovesOnOnceARequestThatKeptASlotHasLeft() throws Exception {
        // The slot a request waits for is kept while later requests are served (above). If that
        // request then copies only the front of it (the slot never counts as done) and the other
        // streamer's slots in between were never asked for (the kernel had them cached), nothing
        // freed the ring once the request left: every later request lay beyond its reach and
        // missed, for the rest of the stream (a review of the change above found it).
        long slow = 4;
        CountDownLatch go = new CountDownLatch(1);
        FileChannel holding = new DelegatingChannel(FileChannel.open(file, StandardOpenOption.READ)) {
            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                if (position >= slow * REQUEST && position < (slow + 1) * REQUEST) {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        throw new java.io.InterruptedIOException();
                    }
                }
                return d.read(dst, position);
            }
        };
        ReadStream stream = started(ReadStream.start(holding, changes, 0, () -> { }, PATIENT));
        ExecutorService waiter = Executors.newSingleThreadExecutor();
        try {
            Pointer buf = buffer();
            for (long k = 0; k < slow; k++) {
                assertThat(stream.serve(buf, REQUEST, k * REQUEST)).isEqualTo(REQUEST);
            }
            java.util.concurrent.atomic.AtomicReference<Thread> waiting = new java.util.concurrent.atomic.AtomicReference<>();
            Future<Integer> frontHalf = waiter.submit(() -> {
                waiting.set(Thread.currentThread());
                return stream.serve(buffer(), REQUEST / 2, slow * REQUEST);
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (waiting.get() == null || waiting.get().getState() != Thread.State.TIMED_WAITING) {
                assertThat(System.nanoTime()).as("the request for slot %d waits for it", slow).isLessThan(deadline);
                Thread.sleep(1);
            }
            long furthest = slow + 1 + 2 * 15; // the other streamer's slots, to 35: the ring's reach from slot 4
            for (long k = slow + 1; k <= furthest; k += 2) {
                assertThat(stream.serve(buf, REQUEST, k * REQUEST)).as("slot %d", k).isEqualTo(REQUEST);
            }
            go.countDown();
            assertThat(frontHalf.get(10, TimeUnit.SECONDS)).isEqualTo(REQUEST / 2);
            byte[] got = new byte[REQUEST];
            for (long k = furthest + 1; k < furthest + 1 + 64; k++) {
                awaitHolds(stream, k * REQUEST);
                assertThat(stream.serve(buf, REQUEST, k * REQUEST)).as("slot %d served by the stream", k).isEqualTo(REQUEST);
                buf.get(0, got, 0, REQUEST);
                assertThat(got).isEqualTo(slice((int) (k * REQUEST), REQUEST));
            }
        } finally {
            go.countDown();
            waiter.shutdownNow();
            stream.close();
            holding.close();
        }
    }

    @Test
    void aStreamWhoseReaderPausedEndsAndTheReaderGetsTheRightBytesLater() throws Exception {
        FileOps quick = withShortIdle();
        long fh = quick.open("/big", O_RDONLY);
        Pointer buf = buffer();
        for (long pos = 0; pos < (1 << 20); pos += REQUEST) {
            assertThat(quick.read(fh, buf, REQUEST, pos)).isEqualTo(REQUEST);
        }
        ReadStream paused = quick.readsOf(fh).stream();
        assertThat(paused).isNotNull();
        awaitEnded(paused);
        assertThat(paused.streaming()).as("its streamers ended for idleness").isFalse();
        assertThat(paused.ringZeroed()).isTrue();
        assertThat(quick.freeRings()).as("its ring is free for other files").isEqualTo(FileOps.MAX_STREAMS);
        byte[] got = new byte[REQUEST];
        for (long pos = 1 << 20; pos < (3 << 20); pos += REQUEST) {
            assertThat(quick.read(fh, buf, REQUEST, pos)).isEqualTo(REQUEST);
            buf.get(0, got, 0, REQUEST);
            assertThat(got).isEqualTo(slice((int) pos, REQUEST));
        }
        quick.release(fh);
        // Released streamers are woken to end; on a busy machine they take a moment to get a CPU.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (streamerThreads() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(streamerThreads()).as("streamer threads left after the release").isZero();
    }

    private static long streamerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("coffer-fuse-stream") && t.isAlive()).count();
    }

    @Test
    void aStreamWhoseReaderStopsShortOfTheEndItsStreamersFoundEnds() throws Exception {
        FileOps quick = withShortIdle();
        long fh = quick.open("/big", O_RDONLY);
        Pointer buf = buffer();
        // Read all but the last 512 KiB: the streamers have found the end, the reader never takes it.
        for (long pos = 0; pos < content.length - 4 * REQUEST; pos += REQUEST) {
            assertThat(quick.read(fh, buf, REQUEST, pos)).isEqualTo(REQUEST);
        }
        ReadStream stream = quick.readsOf(fh).stream();
        awaitEnded(stream);
        assertThat(stream.streaming()).isFalse();
        assertThat(stream.ringZeroed()).as("no cleartext kept for a reader who went away").isTrue();
        assertThat(quick.freeRings()).isEqualTo(FileOps.MAX_STREAMS);
        quick.release(fh);
    }

    private byte[] readSequentially(long fh, long from, int length) throws IOException {
        Pointer buf = buffer();
        byte[] got = new byte[length];
        for (int done = 0; done < length; ) {
            int size = Math.min(REQUEST, length - done);
            int n = files.read(fh, buf, size, from + done);
            assertThat(n).isEqualTo(size);
            buf.get(0, got, done, n);
            done += n;
        }
        return got;
    }

    private byte[] slice(int from, int length) {
        byte[] b = new byte[length];
        System.arraycopy(content, from, b, 0, length);
        return b;
    }

    /** A new handle that has read the first MiB, whose stream has read the next request's bytes ahead. */
    private long readerStreamingPastOneMiB() throws IOException, InterruptedException {
        long reader = files.open("/big", O_RDONLY);
        readSequentially(reader, 0, 1 << 20);
        awaitRingHolds(reader, (1 << 20) + REQUEST);
        return reader;
    }

    /** A FileOps on the same folder whose streamers end after 100 ms without a reader. */
    private FileOps withShortIdle() {
        StreamTiming shortIdle = new StreamTiming(StreamTiming.MOUNT.maxAgeNanos(), TimeUnit.MILLISECONDS.toNanos(100));
        return fileOps(shortIdle);
    }

    /** A FileOps on the test's folder whose streams are stopped after the test, whatever happened in it. */
    private FileOps fileOps(StreamTiming timing) {
        FileOps ops = new FileOps(new Backing(tmp, 0, 0), handles, changes, timing);
        leftovers.add(ops::stopStreams);
        return ops;
    }

    private ReadStream started(ReadStream stream) {
        leftovers.add(stream::close);
        return stream;
    }

    private StreamingReads started(StreamingReads reads) {
        leftovers.add(reads::close);
        return reads;
    }

    /**
     * Stops what a failed check left running: a stream's streamers wait up to 30 s for a reader, and
     * a later test that counts streamer threads would count them and fail too.
     */
    @AfterEach
    void stopLeftoverStreams() {
        leftovers.forEach(Runnable::run);
    }

    /** Waits (up to 10 s) until {@code stream}'s streamers have ended. */
    private static void awaitEnded(ReadStream stream) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (stream.streaming() && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
    }

    /** Waits until {@code stream} has read the bytes at {@code position}. */
    private static void awaitHolds(ReadStream stream, long position) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!stream.holds(position)) {
            assertThat(System.nanoTime()).as("the stream read ahead to " + position).isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    /** Waits until the ring position that held the bytes at {@code position} has gone to a later slot. */
    private static void awaitPlaceTaken(ReadStream stream, long position) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (stream.holds(position)) {
            assertThat(System.nanoTime()).as("a streamer took the place of the bytes at " + position).isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    /** Waits until the stream of {@code fh} has read the bytes at {@code position} ahead of the reader. */
    private void awaitRingHolds(long fh, long position) throws InterruptedException {
        awaitHolds(files.readsOf(fh).stream(), position);
    }

    private static Pointer buffer() {
        return Memory.allocateDirect(Runtime.getSystemRuntime(), REQUEST);
    }
}
