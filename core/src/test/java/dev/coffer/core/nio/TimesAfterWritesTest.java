package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Times set on a file that is still open after large writes (what {@code cp -a} and {@code rsync -a}
 * do before they close it) are the times the file keeps: no write still running behind may land
 * after them.
 */
class TimesAfterWritesTest {
    @TempDir
    Path tmp;

    @Test
    void timesSetBeforeCloseSurviveTheClose() throws IOException {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            FileTime set = FileTime.fromMillis(1_000_000_000_000L);
            for (int round = 0; round < 20; round++) {
                Path file = fs.getPath("/f" + round + ".bin");
                byte[] data = new byte[1_000_003];
                new Random(round).nextBytes(data);
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    ByteBuffer src = ByteBuffer.wrap(data);
                    while (src.hasRemaining()) {
                        ByteBuffer chunk = src.slice();
                        chunk.limit(Math.min(chunk.remaining(), 128 * 1024));
                        src.position(src.position() + ch.write(chunk));
                    }
                    Files.setLastModifiedTime(file, set);
                }
                assertThat(Files.getLastModifiedTime(file)).as("round %d", round).isEqualTo(set);
                assertThat(Files.readAllBytes(file)).isEqualTo(data);
            }
        }
    }

    /**
     * A sync client renamed the open file (another device renamed it): times set under the new name
     * must still wait for the write running behind, as an open under that name joins the open file.
     * Before, the view looked the open file up by path only, set the times at once, and the write
     * landed after them. The store holds the write behind until the times are set (or a second has
     * passed, when they wait for it as they should).
     */
    @Test
    void timesSetUnderTheNameASyncClientGaveTheOpenFileWaitForItsWrites() throws Exception {
        RecordingFileSystem rec = new RecordingFileSystem();
        Path vault = tmp.resolve("renamed");
        FileTime set = FileTime.fromMillis(1_000_000_000_000L);
        byte[] data = new byte[4096 + 128 * 1024];
        new Random(3).nextBytes(data);
        try (CofferFileSystem fs = CofferFileSystems.create(rec.wrap(vault), "pass phrase".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            rec.injectsFileFaults = true;
            try (FileChannel ch = FileChannel.open(fs.getPath("/a.bin"), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(data, 0, 4096));
                CountDownLatch gate = new CountDownLatch(1);
                rec.fileWriteGate = gate;
                ch.write(ByteBuffer.wrap(data, 4096, data.length - 4096)); // 32 units: written behind, held
                Path ciphertext = TestVaults.onlyCiphertextFile(vault);
                Files.move(ciphertext, ciphertext.resolveSibling(fs.mapper.names().encrypt("b.bin", "") + ".c9r"));
                CountDownLatch timesSet = new CountDownLatch(1);
                Thread releaser = new Thread(() -> {
                    try {
                        timesSet.await(1, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    gate.countDown();
                });
                releaser.start();
                try {
                    Files.setLastModifiedTime(fs.getPath("/b.bin"), set);
                } finally {
                    timesSet.countDown();
                    releaser.join();
                    rec.fileWriteGate = null;
                }
            }
            assertThat(Files.getLastModifiedTime(fs.getPath("/b.bin"))).isEqualTo(set);
            assertThat(Files.readAllBytes(fs.getPath("/b.bin"))).isEqualTo(data);
        }
    }
}
