package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.testing.TmpfsMount;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vault writes a large append behind (its ciphertext write overlaps the next call's crypto). If
 * that write finds the disk full and the program makes no further call before close(), the error
 * must still reach the program: FUSE's flush, sent at each close(), collects it. Real mount, real
 * 8 MiB tmpfs under the vault, filled up to 64 KiB before the append.
 */
class DeferredEnospcMountTest {
    @TempDir
    Path tmp;

    /** A fresh 4 KiB file's content, and a whole 128 KiB batch to append to it. */
    private final byte[] first = new byte[4096];
    private final byte[] batch = new byte[128 * 1024];
    /** The file that fills the tmpfs (deleting it makes room again). */
    private Path ballast;

    /** Mounts a new vault on an 8 MiB tmpfs filled up to 64 KiB, runs {@code test} on the mount point. */
    private void onAlmostFullVault(MountedTest test) throws Exception {
        new Random(5).nextBytes(first);
        new Random(6).nextBytes(batch);
        try (TmpfsMount tmpfs = TmpfsMount.mount(tmp.resolve("small"), 8)) {
            Mounts mounts = new Mounts();
            try (CofferFileSystem fs = CofferFileSystems.create(tmpfs.dir().resolve("vault"), "test passphrase".toCharArray(),
                    VaultMountTest.FAST)) {
                try {
                    Path mnt = mounts.mount(fs.getPath("/"), tmp.resolve("mnt")).mountPoint();
                    ballast = tmpfs.leaveFree("ballast.bin", 64 * 1024);
                    test.run(mnt);
                } finally {
                    mounts.close();
                }
            }
        }
    }

    @FunctionalInterface
    private interface MountedTest {
        void run(Path mnt) throws Exception;
    }

    @Test
    @Timeout(120)
    void closeReportsAFullDiskFoundByAnAppendThatRanBehind() throws Exception {
        onAlmostFullVault(mnt -> {
            FileChannel ch = FileChannel.open(mnt.resolve("f.bin"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            ch.write(ByteBuffer.wrap(first)); // header and unit 0: written before the call returns
            // A whole batch appended at a unit boundary: the vault returns before writing it.
            assertThat(ch.write(ByteBuffer.wrap(batch))).isEqualTo(batch.length);
            assertThatThrownBy(ch::close).isInstanceOf(IOException.class).hasMessageContaining("No space left on device");

            // The failed append was undone: the file holds what was written before it.
            assertThat(Files.readAllBytes(mnt.resolve("f.bin"))).isEqualTo(first);
        });
    }

    /**
     * Another program opening the file for writing and closing it (as {@code touch} does) collects the
     * failure first; the program whose append was lost must still hear of it at its own close.
     */
    @Test
    @Timeout(120)
    void theWriterHearsOfItsLostAppendAlthoughAnotherProgramClosedTheFileFirst() throws Exception {
        onAlmostFullVault(mnt -> {
            FileChannel writer = FileChannel.open(mnt.resolve("f.bin"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            writer.write(ByteBuffer.wrap(first));
            assertThat(writer.write(ByteBuffer.wrap(batch))).isEqualTo(batch.length); // runs behind, fails
            FileChannel other = FileChannel.open(mnt.resolve("f.bin"), StandardOpenOption.WRITE);
            assertThatThrownBy(other::close).as("open while the append failed: told as well")
                    .isInstanceOf(IOException.class).hasMessageContaining("No space left on device");
            assertThatThrownBy(writer::close).as("the writer whose data was lost")
                    .isInstanceOf(IOException.class).hasMessageContaining("No space left on device");
            assertThat(Files.readAllBytes(mnt.resolve("f.bin"))).isEqualTo(first);

            FileChannel later = FileChannel.open(mnt.resolve("f.bin"), StandardOpenOption.WRITE);
            later.close(); // opened after both were told: nothing left to report
        });
    }

    /**
     * An append with O_APPEND right after the lost append (the shell's {@code >>}) lands at the file's
     * real end: the kernel still has the size the lost append gave the file, and takes an append's
     * offset from it.
     */
    @Test
    @Timeout(120)
    void anAppendAfterTheLostAppendLandsAtTheRealEnd() throws Exception {
        onAlmostFullVault(mnt -> {
            Path f = mnt.resolve("f.bin");
            FileChannel writer = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            writer.write(ByteBuffer.wrap(first));
            assertThat(writer.write(ByteBuffer.wrap(batch))).isEqualTo(batch.length); // runs behind, fails
            assertThatThrownBy(writer::close).isInstanceOf(IOException.class).hasMessageContaining("No space left on device");
            byte[] line = "one more line\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

            try (FileChannel appender = FileChannel.open(f, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                appender.write(ByteBuffer.wrap(line));
            }

            byte[] expected = java.util.Arrays.copyOf(first, first.length + line.length);
            System.arraycopy(line, 0, expected, first.length, line.length);
            assertThat(Files.readAllBytes(f)).isEqualTo(expected);
        });
    }

    /**
     * One write(2) of two batches reaches the mount as two requests; the first runs behind and is
     * lost to the full disk, the second is refused with that failure, and the kernel returns the first
     * request's count and drops the error. Space is freed before the program writes the rest: that
     * write is refused with the lost request's failure, so the program hears of it before it writes
     * on past the gap.
     */
    @Test
    @Timeout(120)
    void aLostRequestOfASplitWriteIsReportedAtTheProgramsNextWrite() throws Exception {
        onAlmostFullVault(mnt -> {
            byte[] two = new byte[2 * batch.length];
            new Random(7).nextBytes(two);
            FileChannel ch = FileChannel.open(mnt.resolve("f.bin"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            ch.write(ByteBuffer.wrap(first));
            ByteBuffer rest = ByteBuffer.wrap(two);
            assertThat(ch.write(rest)).as("the kernel's count: the first request, which was answered").isEqualTo(batch.length);

            Files.delete(ballast);
            assertThatThrownBy(() -> ch.write(rest)).as("the program's write of the rest, although there is room now")
                    .isInstanceOf(IOException.class).hasMessageContaining("No space left on device");
            ch.close(); // told once
            assertThat(Files.size(mnt.resolve("f.bin"))).as("nothing past the lost request").isEqualTo(first.length);
        });
    }

    /**
     * A program that had the file open does not go on reading the lost append from the kernel's page
     * cache (where the writer's write(2) left it, with the size it gave the file) once the loss came
     * out: the mount has the kernel drop the file's cached pages and attributes. Without that the
     * reader saw the lost bytes for as long as the pages stayed cached.
     */
    @Test
    @Timeout(120)
    void aReaderWithTheFileOpenStopsSeeingTheLostAppend() throws Exception {
        onAlmostFullVault(mnt -> {
            Path f = mnt.resolve("f.bin");
            FileChannel writer = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            writer.write(ByteBuffer.wrap(first));
            try (FileChannel reader = FileChannel.open(f, StandardOpenOption.READ)) {
                assertThat(writer.write(ByteBuffer.wrap(batch))).isEqualTo(batch.length); // runs behind, fails
                assertThatThrownBy(writer::close).isInstanceOf(IOException.class).hasMessageContaining("No space left on device");
                // The invalidation follows the close's reply: give it a moment, never more than a few seconds.
                long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
                int n;
                do {
                    n = reader.read(ByteBuffer.allocate(batch.length), first.length);
                } while (n > 0 && System.nanoTime() < deadline && pause());
                assertThat(n).as("bytes read past the file's real end").isLessThanOrEqualTo(0);
                assertThat(reader.size()).isEqualTo(first.length);
            }
        });
    }

    private static boolean pause() throws InterruptedException {
        Thread.sleep(20);
        return true;
    }
}
