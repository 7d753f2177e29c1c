package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.crypto.AesSiv;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reads of one {@link OpenFile} run in parallel (each with its own decryptor) while a writer rewrites
 * whole units, truncates the file to nothing and grows it again (which replaces the file's keys):
 * every read sees whole units of one write, never a torn unit, a failed authentication, or a
 * destroyed key.
 */
class ParallelReadsTest {
    private static final int S = SectorLayout.SECTOR;
    private static final int UNITS = 64;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void readersSeeWholeUnitsWhileTheFileIsRewrittenAndRekeyed(boolean authenticated) throws Exception {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        FileChannel ch = FileChannel.open(tmp.resolve("f.c9r"), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        OpenFile file = new OpenFile(ch, keys, "/f", false);
        for (int u = 0; u < UNITS; u++) {
            file.write(ByteBuffer.wrap(unitOf((byte) 1)), (long) u * S);
        }
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(7);
        try {
            List<Future<Integer>> readers = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                int seed = t;
                readers.add(pool.submit(() -> readUntilStopped(file, stop, seed)));
            }
            Future<?> writer = pool.submit(() -> {
                Random rnd = new Random(42);
                for (int round = 0; round < 200; round++) {
                    byte v = (byte) (2 + rnd.nextInt(200));
                    if (round % 50 == 49) {
                        file.setSize(0); // rekeys on the next write: every spare decryptor must go
                    }
                    int u = rnd.nextInt(UNITS);
                    file.write(ByteBuffer.wrap(unitOf(v)), (long) u * S);
                    if (file.size() < (long) UNITS * S) {
                        for (int k = 0; k < UNITS; k++) {
                            file.write(ByteBuffer.wrap(unitOf(v)), (long) k * S);
                        }
                    }
                }
                return null;
            });
            writer.get(180, TimeUnit.SECONDS);
            stop.set(true);
            int total = 0;
            for (Future<Integer> r : readers) {
                total += r.get(60, TimeUnit.SECONDS);
            }
            assertThat(total).as("reads done").isGreaterThanOrEqualTo(6 * 50);
        } finally {
            stop.set(true);
            pool.shutdownNow();
            file.close();
        }
    }

    private static int readUntilStopped(OpenFile file, AtomicBoolean stop, int seed) throws IOException {
        Random rnd = new Random(seed);
        int reads = 0;
        // At least 50 reads each, most of them while the writer runs (a loaded machine may starve readers).
        while (!stop.get() || reads < 50) {
            int u = rnd.nextInt(UNITS);
            int count = 1 + rnd.nextInt(40);
            ByteBuffer buf = ByteBuffer.allocate(count * S);
            int n = file.read(buf, (long) u * S);
            if (n > 0) {
                byte[] a = buf.array();
                for (int unit = 0; unit * S < n; unit++) {
                    int base = unit * S;
                    int end = Math.min(n, base + S);
                    for (int i = base; i < end; i++) {
                        assertThat(a[i]).as("byte %d of unit %d", i - base, u + unit).isEqualTo(a[base]);
                    }
                }
            }
            reads++;
        }
        return reads;
    }

    private static byte[] unitOf(byte v) {
        byte[] b = new byte[S];
        java.util.Arrays.fill(b, v);
        return b;
    }
}
