package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ReadAhead} on a real vault file of several chunks: regions starting and ending inside,
 * at and across chunk boundaries come out byte for byte, through the class and through GET with
 * Range; a client that goes away mid-copy ends the copy with its error and leaves the workers
 * serving the next one; with its workers stuck elsewhere the request thread reads every chunk
 * itself, as it does with no workers; a file that shrinks under the copy is an error, not short content.
 */
class ReadAheadTest {
    private static final int CHUNK = ReadAhead.CHUNK;

    @TempDir
    Path tmp;

    private ServedVault served;
    private ReadAhead readAhead;
    private byte[] content;
    private Path file;

    @BeforeEach
    void setUp() throws IOException {
        served = new ServedVault(tmp);
        readAhead = new ReadAhead(2);
        content = new byte[5 * CHUNK + 12_345];
        new Random(7).nextBytes(content);
        file = served.root.resolve("big.bin");
        Files.write(file, content);
    }

    @AfterEach
    void tearDown() throws IOException {
        readAhead.close();
        served.close();
    }

    @Test
    void regionsAcrossChunkBoundariesArriveWhole() throws IOException {
        long[][] regions = {{0, content.length}, {1, content.length - 1}, {CHUNK - 1, 2 * CHUNK + 2}, {CHUNK, CHUNK + 1},
                {3 * CHUNK + 17, content.length - 3 * CHUNK - 17}, {0, CHUNK}, {5, 7}, {content.length - 1, 1}, {0, 0}};
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            for (long[] r : regions) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                readAhead.copy(ch, r[0], r[1], out);
                assertThat(out.toByteArray()).as("%d+%d", r[0], r[1])
                        .isEqualTo(Arrays.copyOfRange(content, (int) r[0], (int) (r[0] + r[1])));
            }
        }
    }

    @Test
    void rangeGetOverHttpAcrossChunks() throws Exception {
        DavClient dav = new DavClient(served.url());
        int from = CHUNK - 3;
        int to = 4 * CHUNK + 5;
        HttpResponse<byte[]> r = dav.send("GET", "/big.bin", (String) null, "Range", "bytes=" + from + "-" + to);
        assertThat(r.statusCode()).isEqualTo(206);
        assertThat(r.body()).isEqualTo(Arrays.copyOfRange(content, from, to + 1));
        assertThat(dav.send("GET", "/big.bin", (String) null).body()).isEqualTo(content);
    }

    @Test
    void aClientThatGoesAwayEndsTheCopyAndTheWorkersServeTheNext() throws IOException {
        OutputStream breaksAfterTwoChunks = new OutputStream() {
            private long written;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                written += len;
                if (written > 2L * CHUNK) {
                    throw new IOException("connection reset");
                }
            }
        };
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            assertThatThrownBy(() -> readAhead.copy(ch, 0, content.length, breaksAfterTwoChunks)).hasMessage("connection reset");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            readAhead.copy(ch, 0, content.length, out);
            assertThat(out.toByteArray()).isEqualTo(content);
        }
    }

    @Test
    void workersThatNeverRunLeaveEveryChunkToTheRequestThread() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService stuck = Executors.newSingleThreadExecutor();
        stuck.execute(() -> awaitQuietly(release)); // the one worker is busy elsewhere for the whole copy
        try (ReadAhead alone = new ReadAhead(stuck, 1, CHUNK); FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            alone.copy(ch, 3, content.length - 3, out);
            assertThat(out.toByteArray()).isEqualTo(Arrays.copyOfRange(content, 3, content.length));
        } finally {
            release.countDown();
        }
        assertThat(stuck.awaitTermination(10, TimeUnit.SECONDS)).isTrue(); // the queued chunks were no-ops
    }

    @Test
    void withoutWorkersTheRequestThreadReadsAlone() throws IOException {
        try (ReadAhead alone = new ReadAhead(0); FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            alone.copy(ch, CHUNK + 1, content.length - CHUNK - 2, out);
            assertThat(out.toByteArray()).isEqualTo(Arrays.copyOfRange(content, CHUNK + 1, content.length - 1));
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aFileThatShrinksUnderTheCopyIsAnError() throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            assertThatThrownBy(() -> readAhead.copy(ch, 0, content.length + 3L * CHUNK, OutputStream.nullOutputStream()))
                    .isInstanceOf(IOException.class).hasMessageContaining("shrank");
        }
    }

    /**
     * The server-wide budget of chunk buffers: while one copy holds it (its client reads slowly), a
     * second copy still completes, sequentially with one buffer; afterwards the whole budget is back.
     */
    @Test
    void copiesBeyondTheServersBufferBudgetGoSequentialAndTheBudgetComesBack() throws Exception {
        try (ReadAhead bounded = new ReadAhead(Executors.newFixedThreadPool(1), 1, CHUNK, 4);
                FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            assertThat(bounded.buffersAvailable()).isEqualTo(4);
            CountDownLatch firstWriting = new CountDownLatch(1);
            CountDownLatch letFirstGo = new CountDownLatch(1);
            ByteArrayOutputStream firstOut = new ByteArrayOutputStream();
            OutputStream slowClient = new OutputStream() {
                @Override
                public void write(int b) {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    firstWriting.countDown();
                    awaitQuietly(letFirstGo);
                    firstOut.write(b, off, len);
                }
            };
            ExecutorService requests = Executors.newSingleThreadExecutor();
            try {
                Future<?> first = requests.submit(() -> {
                    bounded.copy(ch, 0, content.length, slowClient);
                    return null;
                });
                assertThat(firstWriting.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(bounded.buffersAvailable()).as("the first copy holds the budget").isZero();
                ByteArrayOutputStream secondOut = new ByteArrayOutputStream();
                bounded.copy(ch, 5, content.length - 5, secondOut);
                assertThat(secondOut.toByteArray()).isEqualTo(Arrays.copyOfRange(content, 5, content.length));
                letFirstGo.countDown();
                first.get(30, TimeUnit.SECONDS);
                assertThat(firstOut.toByteArray()).isEqualTo(content);
            } finally {
                letFirstGo.countDown();
                requests.shutdownNow();
            }
            assertThat(bounded.buffersAvailable()).isEqualTo(4);
        }
    }
}
