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
}
