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
    private static final int MIB = 1 << 20;

    @TempDir
    Path tmp;

    @Test
    @Timeout(120)
    void closeReportsAFullDiskFoundByAnAppendThatRanBehind() throws Exception {
        byte[] first = new byte[4096];
        byte[] batch = new byte[128 * 1024];
        new Random(5).nextBytes(first);
        new Random(6).nextBytes(batch);
        try (TmpfsMount tmpfs = TmpfsMount.mount(tmp.resolve("small"), 8)) {
            Path vaultDir = tmpfs.dir().resolve("vault");
            Mounts mounts = new Mounts();
            try (CofferFileSystem fs = CofferFileSystems.create(vaultDir, "test passphrase".toCharArray(), VaultMountTest.FAST)) {
                try {
                    Path mnt = mounts.mount(fs.getPath("/"), tmp.resolve("mnt")).mountPoint();
                    leaveFree(tmpfs.dir().resolve("ballast.bin"), 64 * 1024);

                    FileChannel ch = FileChannel.open(mnt.resolve("f.bin"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    ch.write(ByteBuffer.wrap(first)); // header and unit 0: written before the call returns
                    // A whole batch appended at a unit boundary: the vault returns before writing it.
                    assertThat(ch.write(ByteBuffer.wrap(batch))).isEqualTo(batch.length);
                    assertThatThrownBy(ch::close).isInstanceOf(IOException.class).hasMessageContaining("No space left on device");

                    // The failed append was undone: the file holds what was written before it.
                    assertThat(Files.readAllBytes(mnt.resolve("f.bin"))).isEqualTo(first);
                } finally {
                    mounts.close();
                }
            }
        }
    }

    /**
     * Another program opening the file for writing and closing it (as {@code touch} does) collects the
     * failure first; the program whose append was lost must still hear of it at its own close.
     */
    @Test
    @Timeout(120)
    void theWriterHearsOfItsLostAppendAlthoughAnotherProgramClosedTheFileFirst() throws Exception {
        byte[] first = new byte[4096];
        byte[] batch = new byte[128 * 1024];
        new Random(7).nextBytes(first);
        new Random(8).nextBytes(batch);
        try (TmpfsMount tmpfs = TmpfsMount.mount(tmp.resolve("small"), 8)) {
            Path vaultDir = tmpfs.dir().resolve("vault");
            Mounts mounts = new Mounts();
            try (CofferFileSystem fs = CofferFileSystems.create(vaultDir, "test passphrase".toCharArray(), VaultMountTest.FAST)) {
                try {
                    Path mnt = mounts.mount(fs.getPath("/"), tmp.resolve("mnt")).mountPoint();
                    leaveFree(tmpfs.dir().resolve("ballast.bin"), 64 * 1024);

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
                } finally {
                    mounts.close();
                }
            }
        }
    }

    /** Fills the tmpfs with {@code ballast}, then gives back {@code bytes}. */
    private static void leaveFree(Path ballast, int bytes) throws IOException {
        byte[] chunk = new byte[MIB];
        try (FileChannel b = FileChannel.open(ballast, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            try {
                while (true) {
                    b.write(ByteBuffer.wrap(chunk));
                }
            } catch (IOException full) {
                assertThat(full).hasMessageContaining("No space left on device");
            }
            b.truncate(b.size() / 4096 * 4096 - bytes);
        }
    }
}
