package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gathering write on a channel opened with APPEND lands as one contiguous append, like writev(2)
 * on an O_APPEND descriptor: two programs appending records of several buffers (a header, a body, a
 * trailer) to one log never tear each other's records apart.
 */
class GatheringAppendTest {
    private static final int RECORDS = 400;
    private static final int[] PARTS = {7, 3000, 11, 1500};
    private static final int RECORD = Arrays.stream(PARTS).sum();

    @TempDir
    Path tmp;

    @Test
    void concurrentGatheringAppendsKeepEveryRecordContiguous() throws Exception {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            Path log = Files.write(fs.getPath("/log"), new byte[0]);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                CyclicBarrier start = new CyclicBarrier(2);
                Future<?> a = pool.submit(() -> appendRecords(log, (byte) 'a', start));
                Future<?> b = pool.submit(() -> appendRecords(log, (byte) 'b', start));
                a.get();
                b.get();
            } finally {
                pool.shutdown();
            }
            byte[] content = Files.readAllBytes(log);
            assertThat(content).hasSize(2 * RECORDS * RECORD);
            for (int r = 0; r < 2 * RECORDS; r++) {
                byte first = content[r * RECORD];
                for (int i = 1; i < RECORD; i++) {
                    if (content[r * RECORD + i] != first) {
                        throw new AssertionError("record " + r + " is torn at its byte " + i);
                    }
                }
            }
        }
    }

    private static Void appendRecords(Path log, byte mark, CyclicBarrier start) throws Exception {
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.APPEND)) {
            start.await();
            for (int r = 0; r < RECORDS; r++) {
                ByteBuffer[] record = new ByteBuffer[PARTS.length];
                for (int p = 0; p < PARTS.length; p++) {
                    byte[] part = new byte[PARTS[p]];
                    Arrays.fill(part, mark);
                    record[p] = ByteBuffer.wrap(part);
                }
                long written = 0;
                while (written < RECORD) {
                    written += ch.write(record);
                }
                assertThat(written).isEqualTo(RECORD);
            }
        }
        return null;
    }
}
