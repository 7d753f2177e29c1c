package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.crypto.AesSiv;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A program that appends whole batches (written behind or queued, here slowly) and then exits without closing
 * the file, by returning from main or by System.exit: the JVM's exit waits for the write, so the
 * file holds everything the program wrote. Runs the writer in a child JVM.
 */
class ExitWithoutCloseTest {
    private static final int BATCH = 32 * SectorLayout.SECTOR;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @CsvSource({"return, behind", "exit, behind", "return, queued", "exit, queued"})
    void theJvmExitWaitsForAWriteRunningBehind(String how, String path) throws Exception {
        Path file = tmp.resolve("f.c9r");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Writer.class.getName(), file.toString(), how, path)
                .redirectErrorStream(true).start();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output).contains("appended");
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys(), "/f", false)) {
            ByteBuffer back = ByteBuffer.allocate((int) f.size());
            while (back.hasRemaining() && f.read(back, back.position()) >= 0) {
                // reads until full
            }
            assertThat(Arrays.equals(back.array(), expected())).isTrue();
        }
    }

    static ContentKeys keys() {
        return new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), true);
    }

    static byte[] expected() {
        byte[] b = new byte[3 * BATCH];
        new Random(42).nextBytes(b);
        return b;
    }

    /**
     * The child: writes one batch, then appends two more behind a 500 ms write delay (written behind
     * one after the other, or queued together), then leaves.
     */
    public static final class Writer {
        public static void main(String[] args) throws IOException {
            SpaceLimitedChannel ch = new SpaceLimitedChannel(FileChannel.open(Paths.get(args[0]), StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE), Long.MAX_VALUE);
            OpenFile.FreeSpace roomy = () -> Long.MAX_VALUE / 2;
            OpenFile f = args[2].equals("queued") ? new OpenFile(ch, keys(), "/f", false, roomy)
                    : new OpenFile(ch, keys(), "/f", false);
            byte[] data = expected();
            f.write(ByteBuffer.wrap(data, 0, BATCH), 0);
            ch.setWriteDelayMillis(500);
            f.write(ByteBuffer.wrap(data, BATCH, BATCH), BATCH);
            f.write(ByteBuffer.wrap(data, 2 * BATCH, BATCH), 2 * BATCH);
            System.out.println("appended");
            System.out.flush();
            if (args[1].equals("exit")) {
                System.exit(0);
            }
        }
    }
}
