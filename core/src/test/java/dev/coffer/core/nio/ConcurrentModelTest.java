package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Many threads on one vault's java.nio file system at once, compared to a model at the end:
 * <ul>
 *   <li>each thread writes, truncates (down and up), reads and reopens its own file, checking
 *       every read against its model as it goes;</li>
 *   <li>all threads write and read their own region of one shared file through their own
 *       channels; the regions are 5000 bytes, so neighbours share a 4096-byte unit and change it
 *       at the same time;</li>
 *   <li>all threads extend one growing file by writing their own 777-byte chunks at interleaved
 *       offsets, so its size and unit layout change under everyone's feet;</li>
 *   <li>all threads write, truncate and read one contended file anywhere. Its final content
 *       depends on the order, so it has no model: every read must succeed (in SIV_XTSHMAC a
 *       torn or mixed-up unit would fail authentication) and never reach past what any write could.</li>
 * </ul>
 * Every file with a model must match it at the end, and every file must read back the same after
 * the vault is locked and reopened.
 * A deadlock fails after two minutes with every thread's stack.
 */
class ConcurrentModelTest {
    private static final int THREADS = 8;
    private static final int OPS = Integer.getInteger("coffer.concurrent.ops", 1000);
    private static final int REGION = 5000;
    private static final int CHUNK = 777;
    private static final int CHUNKS_PER_THREAD = 40;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(CipherCombo.class)
    void threadsOnTheSameAndDifferentFilesMatchTheModel(CipherCombo combo) throws Exception {
        Path vault = tmp.resolve("vault");
        byte[][] own = new byte[THREADS][];
        byte[] shared = new byte[THREADS * REGION];
        byte[] growing = new byte[THREADS * CHUNKS_PER_THREAD * CHUNK];
        byte[] contended;
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "p".toCharArray(), new VaultCreationOptions(combo, 1 << 14, 220))) {
            Files.write(fs.getPath("/shared.bin"), shared);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<byte[]>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int id = t;
                results.add(pool.submit(() -> work(fs, id, shared, growing)));
            }
            pool.shutdown();
            if (!pool.awaitTermination(2, TimeUnit.MINUTES)) {
                fail("no progress after 2 minutes (deadlock?):\n" + stacks());
            }
            for (int t = 0; t < THREADS; t++) {
                try {
                    own[t] = results.get(t).get(1, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    fail("thread " + t + " did not finish");
                }
            }
            check(fs, own, shared, growing);
            contended = Files.readAllBytes(fs.getPath("/contended.bin"));
        }
        try (CofferFileSystem fs = CofferFileSystems.open(vault, "p".toCharArray(), true)) {
            check(fs, own, shared, growing);
            assertThat(Files.readAllBytes(fs.getPath("/contended.bin"))).as("contended file after reopening").isEqualTo(contended);
        }
    }

    private static void check(CofferFileSystem fs, byte[][] own, byte[] shared, byte[] growing) throws IOException {
        for (int t = 0; t < THREADS; t++) {
            assertThat(Files.readAllBytes(fs.getPath("/own-" + t + ".bin"))).as("own file %d", t).isEqualTo(own[t]);
        }
        assertThat(Files.readAllBytes(fs.getPath("/shared.bin"))).as("shared file").isEqualTo(shared);
        assertThat(Files.readAllBytes(fs.getPath("/growing.bin"))).as("growing file").isEqualTo(growing);
    }

    /** One thread's work; fills its part of the shared models and returns its own file's model. */
    private static byte[] work(CofferFileSystem fs, int id, byte[] shared, byte[] growing) throws IOException {
        Random r = new Random(1000 + id);
        Path ownPath = fs.getPath("/own-" + id + ".bin");
        byte[] model = new byte[0];
        int chunk = 0;
        FileChannel ownCh = FileChannel.open(ownPath, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try (FileChannel sharedCh = FileChannel.open(fs.getPath("/shared.bin"), StandardOpenOption.READ, StandardOpenOption.WRITE);
             FileChannel growCh = FileChannel.open(fs.getPath("/growing.bin"), StandardOpenOption.CREATE, StandardOpenOption.READ,
                     StandardOpenOption.WRITE);
             FileChannel contendedCh = FileChannel.open(fs.getPath("/contended.bin"), StandardOpenOption.CREATE, StandardOpenOption.READ,
                     StandardOpenOption.WRITE)) {
            for (int op = 0; op < OPS; op++) {
                switch (r.nextInt(10)) {
                    case 8 -> { // contended file: write anywhere or truncate, whoever else does the same
                        if (r.nextInt(3) == 0) {
                            contendedCh.truncate(r.nextInt(30_000));
                        } else {
                            contendedCh.write(ByteBuffer.wrap(bytes(r, 1 + r.nextInt(9000))), r.nextInt(30_000));
                        }
                    }
                    case 9 -> { // contended file: reads without error, never beyond what any write could reach
                        assertThat(contendedCh.size()).isLessThan(30_000 + 9000);
                        assertThat(readFully(contendedCh, 0, 40_000).length).isLessThan(30_000 + 9000);
                    }
                    case 0, 1 -> { // own file: write anywhere, maybe past the end
                        byte[] data = bytes(r, 1 + r.nextInt(9000));
                        int at = r.nextInt(40_000);
                        ownCh.write(ByteBuffer.wrap(data), at);
                        model = Arrays.copyOf(model, Math.max(model.length, at + data.length));
                        System.arraycopy(data, 0, model, at, data.length);
                    }
                    case 2 -> { // own file: truncate down, or grow with zeros
                        int size = r.nextInt(40_000);
                        if (size < model.length) {
                            ownCh.truncate(size);
                        } else if (size > model.length) {
                            ownCh.write(ByteBuffer.wrap(new byte[1]), size - 1);
                        }
                        model = Arrays.copyOf(model, size);
                    }
                    case 3 -> { // own file: read back and compare, sometimes through a new channel
                        if (r.nextInt(4) == 0) {
                            ownCh.close();
                            ownCh = FileChannel.open(ownPath, StandardOpenOption.READ, StandardOpenOption.WRITE);
                        }
                        assertThat(ownCh.size()).isEqualTo(model.length);
                        assertThat(readFully(ownCh, 0, model.length)).as("thread %d op %d", id, op).isEqualTo(model);
                    }
                    case 4, 5 -> { // shared file: write within the own region
                        int from = r.nextInt(REGION);
                        byte[] data = bytes(r, 1 + r.nextInt(REGION - from));
                        sharedCh.write(ByteBuffer.wrap(data), (long) id * REGION + from);
                        System.arraycopy(data, 0, shared, id * REGION + from, data.length);
                    }
                    case 6 -> // shared file: the own region reads back as written, whatever the neighbours do
                        assertThat(readFully(sharedCh, (long) id * REGION, REGION)).as("region %d op %d", id, op)
                                .isEqualTo(Arrays.copyOfRange(shared, id * REGION, (id + 1) * REGION));
                    default -> { // growing file: the next own chunk, interleaved with the other threads' chunks
                        if (chunk < CHUNKS_PER_THREAD) {
                            long at = ((long) chunk * THREADS + id) * CHUNK;
                            byte[] data = bytes(r, CHUNK);
                            growCh.write(ByteBuffer.wrap(data), at);
                            System.arraycopy(data, 0, growing, (int) at, CHUNK);
                            assertThat(readFully(growCh, at, CHUNK)).isEqualTo(data);
                            chunk++;
                        }
                    }
                }
            }
            for (; chunk < CHUNKS_PER_THREAD; chunk++) {
                long at = ((long) chunk * THREADS + id) * CHUNK;
                byte[] data = bytes(r, CHUNK);
                growCh.write(ByteBuffer.wrap(data), at);
                System.arraycopy(data, 0, growing, (int) at, CHUNK);
            }
        } finally {
            ownCh.close();
        }
        return model;
    }

    private static byte[] bytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    private static byte[] readFully(FileChannel ch, long at, int n) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(n);
        while (buf.hasRemaining()) {
            if (ch.read(buf, at + buf.position()) < 0) {
                break;
            }
        }
        return Arrays.copyOf(buf.array(), buf.position());
    }

    private static String stacks() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            sb.append(e.getKey().getName()).append('\n');
            for (StackTraceElement s : e.getValue()) {
                sb.append("    at ").append(s).append('\n');
            }
        }
        return sb.toString();
    }
}
