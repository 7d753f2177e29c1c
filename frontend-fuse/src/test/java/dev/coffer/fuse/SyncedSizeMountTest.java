package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sync client replaces a file's ciphertext with another device's longer version while the kernel
 * still holds the old size (the mount's default cache time, 10 s), and a program then opens the file:
 * it reads the whole new version, not its first bytes cut to the old size.
 */
class SyncedSizeMountTest {
    @TempDir
    Path tmp;
    private VaultMount vm;

    @BeforeEach
    void mount() throws IOException {
        vm = new VaultMount(tmp, MountOptions.defaults(false), FuseAdapter::new);
    }

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        vm.close();
    }

    @Test
    void aFileOpenedAfterASyncGrewItReadsToItsNewEnd() throws Exception {
        byte[] longer = content(100_000);
        Path file = vm.mnt.resolve("report.txt");
        Files.write(file, longer);
        Path synced = Files.copy(ciphertextOf("report.txt"), tmp.resolve("synced.c9r")); // the other device's version
        Files.writeString(file, "short");
        assertThat(Files.size(file)).as("the kernel now holds the short size").isEqualTo(5);

        Files.move(synced, ciphertextOf("report.txt"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

        byte[] read = Files.readAllBytes(file);
        assertThat(read.length).as("bytes read").isEqualTo(longer.length);
        assertThat(read).isEqualTo(longer);
        assertThat(Files.size(file)).isEqualTo(longer.length);
    }

    /** The same for a program that reads without a stat first, in small reads (as cat and cp do). */
    @Test
    void smallReadsOfAFileASyncGrewGoToItsNewEnd() throws Exception {
        byte[] longer = content(50_000);
        Path file = vm.mnt.resolve("notes.txt");
        Files.write(file, longer);
        Path synced = Files.copy(ciphertextOf("notes.txt"), tmp.resolve("synced.c9r"));
        Files.write(file, content(6_000));
        assertThat(Files.size(file)).isEqualTo(6_000);

        Files.move(synced, ciphertextOf("notes.txt"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

        assertThat(readInPieces(file)).isEqualTo(longer);
    }

    /**
     * The kernel's size came from this mount's own writes after its last stat (no stat since): the
     * stat's size equals the synced version's, yet the kernel holds the written one (it asks again
     * itself after its own writes).
     */
    @Test
    void aFileRewrittenHereWithoutAStatAndThenSyncedReadsToItsNewEnd() throws Exception {
        byte[] longer = content(50_000);
        Path file = vm.mnt.resolve("notes.txt");
        Files.write(file, longer);
        Path synced = Files.copy(ciphertextOf("notes.txt"), tmp.resolve("synced.c9r"));
        assertThat(Files.size(file)).as("the kernel is given the synced version's size").isEqualTo(longer.length);
        Files.write(file, content(6_000)); // O_TRUNC and writes: the kernel's size is 6,000, no stat since

        Files.move(synced, ciphertextOf("notes.txt"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

        assertThat(readInPieces(file)).isEqualTo(longer);
    }

    /** A save by rename (editors): the name's size is the renamed file's, and a sync after it is seen. */
    @Test
    void aFileSavedByRenameAndThenSyncedReadsToItsNewEnd() throws Exception {
        byte[] longer = content(50_000);
        Path file = vm.mnt.resolve("notes.txt");
        Files.write(file, longer);
        Path synced = Files.copy(ciphertextOf("notes.txt"), tmp.resolve("synced.c9r"));
        Path temp = Files.write(vm.mnt.resolve("notes.txt~"), content(6_000));
        assertThat(Files.size(temp)).isEqualTo(6_000);
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        assertThat(Files.size(file)).isEqualTo(6_000);

        Files.move(synced, ciphertextOf("notes.txt"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

        assertThat(readInPieces(file)).isEqualTo(longer);
    }

    /** Reads {@code file} to its end in 4 KiB reads, without a stat first. */
    private static byte[] readInPieces(Path file) throws IOException {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
            ByteBuffer piece = ByteBuffer.allocate(4096);
            while (in.read(piece.clear()) > 0) {
                all.write(piece.array(), 0, piece.position());
            }
            return all.toByteArray();
        }
    }

    private static byte[] content(int length) {
        byte[] content = new byte[length];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31 + i / 251);
        }
        return content;
    }

    /** The ciphertext file of {@code name}, the vault's only file (its folders' and links' files aside). */
    private Path ciphertextOf(String name) throws IOException {
        try (Stream<Path> s = Files.walk(vm.vault.resolve("d"))) {
            List<Path> files = s.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().endsWith(".c9r"))
                    .filter(p -> !p.getFileName().toString().matches("(dir|dirid|symlink)\\.c9r")).collect(Collectors.toList());
            assertThat(files).as("one file in the vault: %s", name).hasSize(1);
            return files.get(0);
        }
    }
}
