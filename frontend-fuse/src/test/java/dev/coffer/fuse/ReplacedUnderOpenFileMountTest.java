package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
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
 * A sync client replaces a file's ciphertext (renames another version over it) while a program has
 * the file open on a real mount of a real vault, and a stat of the name then gives the kernel the
 * other file's size: the kernel keeps one size per name (libfuse 2, one inode per path). Mounted with
 * attr_timeout=0, so that the kernel asks again at once where it would otherwise after up to 10 s.
 */
class ReplacedUnderOpenFileMountTest {
    @TempDir
    Path tmp;
    private VaultMount vm;

    @BeforeEach
    void mount() throws IOException {
        vm = new VaultMount(tmp, MountOptions.defaults(false).withFuseOptions(List.of("attr_timeout=0")), FuseAdapter::new);
    }

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        vm.close();
    }

    /** The kernel asks for the size with the reader's handle when a read passes the name's size. */
    @Test
    void aDescriptorOpenBeforeTheReplacementReadsItsWholeFile() throws Exception {
        Path file = Files.writeString(vm.mnt.resolve("big.bin"), "short");
        Path synced = Files.copy(onlyCiphertextFile(), tmp.resolve("synced.c9r")); // 5 bytes, back from the sync
        byte[] content = content();
        Files.write(file, content);
        try (FileChannel open = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer all = ByteBuffer.allocate(content.length + 1);
            all.limit(8192);
            open.read(all, 0);
            Files.move(synced, onlyCiphertextFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            assertThat(Files.size(file)).as("a stat of the name: the synced file").isEqualTo(5);

            all.limit(all.capacity());
            while (open.read(all, all.position()) > 0) {
                // to the end
            }
            assertThat(all.position()).as("bytes read through the descriptor").isEqualTo(content.length);
            assertThat(java.util.Arrays.copyOf(all.array(), content.length)).isEqualTo(content);
        }
        assertThat(Files.readString(file)).isEqualTo("short");
    }

    /** As above when the sync client deleted the file: the name is gone, the descriptor reads on. */
    @Test
    void aDescriptorOpenBeforeTheDeletionReadsItsWholeFile() throws Exception {
        Path file = vm.mnt.resolve("big.bin");
        byte[] content = content();
        Files.write(file, content);
        try (FileChannel open = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer all = ByteBuffer.allocate(content.length + 1);
            all.limit(8192);
            open.read(all, 0);
            Files.delete(onlyCiphertextFile());
            assertThat(Files.exists(file)).as("a stat of the name").isFalse();

            all.limit(all.capacity());
            while (open.read(all, all.position()) > 0) {
                // to the end
            }
            assertThat(all.position()).as("bytes read through the descriptor").isEqualTo(content.length);
            assertThat(java.util.Arrays.copyOf(all.array(), content.length)).isEqualTo(content);
        }
    }

    /** As above when the name now holds a folder (the file deleted and a folder made there, not through this mount). */
    @Test
    void aDescriptorOpenBeforeItsNameBecameAFolderReadsItsWholeFile() throws Exception {
        Path file = vm.mnt.resolve("big.bin");
        byte[] content = content();
        Files.write(file, content);
        try (FileChannel open = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer all = ByteBuffer.allocate(content.length + 1);
            all.limit(8192);
            open.read(all, 0);
            Files.delete(vm.fs.getPath("/big.bin"));
            Files.createDirectory(vm.fs.getPath("/big.bin"));
            // No stat of the name here: its answer (a folder) would make the kernel fail the file's
            // inode at once; a read past the size it has asks with the handle instead.

            all.limit(all.capacity());
            while (open.read(all, all.position()) > 0) {
                // to the end
            }
            assertThat(all.position()).as("bytes read through the descriptor").isEqualTo(content.length);
            assertThat(java.util.Arrays.copyOf(all.array(), content.length)).isEqualTo(content);
        }
    }

    /** The kernel sends an append at the name's size, inside the descriptor's file. */
    @Test
    void appendsAfterTheReplacementGoToTheEndOfTheDescriptorsFile() throws Exception {
        Path file = Files.writeString(vm.mnt.resolve("log.txt"), "base\n");
        Path synced = Files.copy(onlyCiphertextFile(), tmp.resolve("synced.c9r"));
        try (FileChannel reader = FileChannel.open(file, StandardOpenOption.READ);
                FileChannel appender = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            appender.write(ascii("local1\n"));
            Files.move(synced, onlyCiphertextFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            assertThat(Files.size(file)).as("a stat of the name: the synced file").isEqualTo(5);
            appender.write(ascii("local2\n"));
            appender.write(ascii("local3\n"));

            ByteBuffer held = ByteBuffer.allocate(1024);
            while (reader.read(held, held.position()) > 0) {
                // to the end
            }
            assertThat(new String(held.array(), 0, held.position(), StandardCharsets.US_ASCII))
                    .isEqualTo("base\nlocal1\nlocal2\nlocal3\n");
        }
        assertThat(Files.readString(file)).as("the synced file is untouched").isEqualTo("base\n");
    }

    /**
     * A program writes on after the sync client replaced the file: its bytes went to the orphaned
     * ciphertext, and the release (after close(2), asynchronously) keeps them as a conflict copy.
     */
    @Test
    void whatAProgramWroteAfterTheReplacementIsKeptAsAConflictCopy() throws Exception {
        Path file = Files.writeString(vm.mnt.resolve("notes.txt"), "theirs");
        Path synced = Files.copy(onlyCiphertextFile(), tmp.resolve("synced.c9r"));
        try (FileChannel program = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            program.write(ascii("written before, "));
            Files.move(synced, onlyCiphertextFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            program.write(ascii("and after the replacement"));
        }
        Path copy = vm.mnt.resolve("notes.txt (Conflict 1)");
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!listed(copy) && System.nanoTime() < deadline) {
            Thread.sleep(20); // FUSE's release runs after close(2) has returned
        }
        assertThat(listed(copy)).as("the conflict copy in the mount's listing").isTrue();
        assertThat(Files.readString(copy)).isEqualTo("written before, and after the replacement");
        assertThat(Files.readString(file)).as("the synced file is untouched").isEqualTo("theirs");
    }

    private static boolean listed(Path p) throws IOException {
        try (Stream<Path> in = Files.list(p.getParent())) {
            return in.anyMatch(p::equals);
        }
    }

    private static byte[] content() {
        byte[] content = new byte[100_000];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31 + i / 251);
        }
        return content;
    }

    private static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }

    /** The vault's one file's ciphertext (its folders' and links' files aside). */
    private Path onlyCiphertextFile() throws IOException {
        try (Stream<Path> s = Files.walk(vm.vault.resolve("d"))) {
            List<Path> files = s.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().endsWith(".c9r"))
                    .filter(p -> !p.getFileName().toString().matches("(dir|dirid|symlink)\\.c9r")).collect(Collectors.toList());
            assertThat(files).hasSize(1);
            return files.get(0);
        }
    }
}
