package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sync client renames a ciphertext file while it is open (another device renamed it, or it set the
 * file aside as a conflicted copy): an open under the new name joins the open file, so both channels
 * share one cached size, last unit and header instead of overwriting each other's units and tags.
 */
class RenamedUnderneathTest {
    @TempDir
    Path tmp;
    private Path vault;
    private CofferFileSystem fs;

    @BeforeEach
    void vault() throws IOException {
        vault = tmp.resolve("v");
        fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST);
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    @Test
    void anOpenUnderTheNewNameJoinsTheOpenFile() throws IOException {
        byte[] expected = new byte[12_000];
        try (FileChannel first = FileChannel.open(fs.getPath("/a.txt"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            write(first, expected, 0, 6000, (byte) 'a');
            Path ciphertext = TestVaults.onlyCiphertextFile(vault);
            Files.move(ciphertext, ciphertext.resolveSibling(fs.mapper.names().encrypt("b.txt", "") + ".c9r"));

            try (FileChannel second = FileChannel.open(fs.getPath("/b.txt"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                write(second, expected, 6000, 3000, (byte) 'b');
                write(first, expected, 8000, 4000, (byte) 'c');
                write(second, expected, 100, 100, (byte) 'd');
                assertThat(Files.size(fs.getPath("/b.txt"))).as("a stat of the new name reports the open file").isEqualTo(12_000);
                second.force(true);
            }
            first.force(true);
        }
        assertThat(Files.readAllBytes(fs.getPath("/b.txt"))).isEqualTo(expected);
    }

    @Test
    void anOpenOfTheConflictedCopyJoinsTheOpenFile() throws IOException {
        byte[] expected = new byte[10_000];
        Files.writeString(fs.getPath("/a.txt"), "the other device's version");
        Path ciphertext = TestVaults.onlyCiphertextFile(vault);
        Path othersVersion = Files.copy(ciphertext, tmp.resolve("others.c9r"));
        try (FileChannel first = FileChannel.open(fs.getPath("/a.txt"), StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            write(first, expected, 0, 5000, (byte) 'a');
            first.force(true);
            // The sync client sets this device's version aside as a conflicted copy and puts the other's in its place.
            String stem = ciphertext.getFileName().toString().replace(".c9r", "");
            Files.move(ciphertext, ciphertext.resolveSibling(stem + " (conflicted copy).c9r"));
            Files.move(othersVersion, ciphertext);
            List<String> listed;
            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                listed = s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
            }
            assertThat(listed).containsExactly("a (conflicted copy).txt", "a.txt");

            try (FileChannel second = FileChannel.open(fs.getPath("/a (conflicted copy).txt"), StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                write(second, expected, 5000, 3000, (byte) 'b');
                write(first, expected, 6000, 4000, (byte) 'c');
                write(second, expected, 4000, 100, (byte) 'd');
            }
        }
        assertThat(Files.readAllBytes(fs.getPath("/a (conflicted copy).txt"))).isEqualTo(expected);
        assertThat(Files.readString(fs.getPath("/a.txt"))).isEqualTo("the other device's version");
    }

    /**
     * A sync client rewrites an open file in place (same inode, another device's version with its own
     * header): a later open must not join the open file, whose cached header no longer fits the units.
     */
    @Test
    void anOpenOfAFileRewrittenInPlaceDoesNotUseTheStaleHeader() throws IOException {
        Files.write(fs.getPath("/other.txt"), "b".repeat(10_000).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        Path othersCiphertext = TestVaults.onlyCiphertextFile(vault);
        byte[] othersVersion = Files.readAllBytes(othersCiphertext);
        Files.delete(fs.getPath("/other.txt"));
        byte[] mine = new byte[6000];
        byte[] expected = "b".repeat(10_000).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        try (FileChannel first = FileChannel.open(fs.getPath("/a.txt"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            write(first, mine, 0, 6000, (byte) 'a');
            first.force(true);
            Path ciphertext = TestVaults.onlyCiphertextFile(vault);
            Object inode = Files.readAttributes(ciphertext, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
            try (FileChannel inPlace = FileChannel.open(ciphertext, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                inPlace.write(ByteBuffer.wrap(othersVersion));
            }
            assertThat(Files.readAttributes(ciphertext, java.nio.file.attribute.BasicFileAttributes.class).fileKey()).isEqualTo(inode);

            try (FileChannel second = FileChannel.open(fs.getPath("/a.txt"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                write(second, expected, 4096, 4096, (byte) 'c'); // a whole unit: nothing old needs to be read first
                write(second, expected, 100, 10, (byte) 'd');
            }
            assertThat(Files.readAllBytes(fs.getPath("/a.txt"))).as("read while the first channel is still open").isEqualTo(expected);
            assertThatThrownBy(() -> first.write(ByteBuffer.wrap(new byte[] {'x'}), 0))
                    .as("the stale open file would encrypt a unit of the new content under the old key")
                    .isInstanceOf(IOException.class).hasMessageContaining("rewritten by another program");
            assertThatThrownBy(() -> first.truncate(10)).isInstanceOf(IOException.class);
        }
        assertThat(Files.readAllBytes(fs.getPath("/a.txt"))).as("after the stale channel's close").isEqualTo(expected);
    }

    /**
     * Another device appended to the same file (an append keeps the file's header) and a sync client
     * applied that in place (rsync or rclone {@code --inplace}: same inode): the header still matches,
     * but the open file's size and cached last unit are stale, and an append through it would re-tag
     * over the other device's units. A later open must see the stored length and not join it.
     */
    @Test
    void anOpenOfAFileAppendedInPlaceByAnotherDeviceSeesTheNewSize() throws IOException {
        byte[] expected = ("a".repeat(10_000) + "b".repeat(5_000) + "c").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Files.write(fs.getPath("/a.txt"), java.util.Arrays.copyOf(expected, 10_000));
        Path device2 = tmp.resolve("v2");
        copyTree(vault, device2);
        try (FileChannel first = FileChannel.open(fs.getPath("/a.txt"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            first.read(ByteBuffer.allocate(100), 9_950); // the open file now holds the last unit too
            try (CofferFileSystem fs2 = CofferFileSystems.open(device2, "pass phrase".toCharArray(), false)) {
                Files.write(fs2.getPath("/a.txt"), java.util.Arrays.copyOfRange(expected, 10_000, 15_000), StandardOpenOption.APPEND);
            }
            Path mine = TestVaults.onlyCiphertextFile(vault);
            byte[] theirs = Files.readAllBytes(TestVaults.onlyCiphertextFile(device2));
            assertThat(java.util.Arrays.copyOf(theirs, 48)).as("an append keeps the header")
                    .isEqualTo(java.util.Arrays.copyOf(Files.readAllBytes(mine), 48));
            try (FileChannel inPlace = FileChannel.open(mine, StandardOpenOption.WRITE)) {
                inPlace.write(ByteBuffer.wrap(theirs), 0);
            }
            try (FileChannel second = FileChannel.open(fs.getPath("/a.txt"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                assertThat(second.size()).as("the stored file holds 15000 bytes").isEqualTo(15_000);
                second.write(ByteBuffer.wrap(new byte[] {'c'}), 15_000);
            }
            assertThatThrownBy(() -> first.write(ByteBuffer.wrap(new byte[] {'x'}), 10_000))
                    .as("the stale open file would re-tag over the other device's units")
                    .isInstanceOf(IOException.class).hasMessageContaining("rewritten by another program");
        }
        assertThat(Files.readAllBytes(fs.getPath("/a.txt"))).isEqualTo(expected);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    /** As above, for a file open while empty: it has no header to compare, but now holds units. */
    @Test
    void anOpenOfAnEmptyFileFilledInPlaceReadsTheNewContent() throws IOException {
        Files.writeString(fs.getPath("/other.txt"), "the other device's version");
        Path othersCiphertext = TestVaults.onlyCiphertextFile(vault);
        byte[] othersVersion = Files.readAllBytes(othersCiphertext);
        Files.delete(fs.getPath("/other.txt"));
        try (FileChannel first = FileChannel.open(fs.getPath("/a.txt"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            Path ciphertext = TestVaults.onlyCiphertextFile(vault);
            try (FileChannel inPlace = FileChannel.open(ciphertext, StandardOpenOption.WRITE)) {
                inPlace.write(ByteBuffer.wrap(othersVersion));
            }
            assertThat(Files.readString(fs.getPath("/a.txt"))).isEqualTo("the other device's version");
            assertThat(first.size()).as("the first channel keeps its open file").isZero();
            assertThatThrownBy(() -> first.write(ByteBuffer.wrap(new byte[] {'x'}))).as("it would write a new header over the units")
                    .isInstanceOf(IOException.class);
        }
        assertThat(Files.readString(fs.getPath("/a.txt"))).isEqualTo("the other device's version");
    }

    /**
     * A writer opening the new name of a file first opened read-only (the store denied write access)
     * joins it by file key, and the joined open file writes through the channel that open made.
     */
    @Test
    void aWriterJoiningARenamedReadOnlyOpenFileCanWrite() throws IOException {
        OpenFiles files = new OpenFiles(new dev.coffer.core.content.ContentKeys(new dev.coffer.core.content.FileHeaders(
                new dev.coffer.core.crypto.AesSiv(new byte[64]), new java.security.SecureRandom()), true), new ConflictCopyListeners());
        Path payload = tmp.resolve("f.c9r");
        Path renamedTo = tmp.resolve("g.c9r");
        try {
            OpenFiles.Handle made = files.open(payload, java.util.EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.CREATE_NEW), "/f", false);
            made.file.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            files.release(made, null);

            OpenFiles.Handle reader = files.open(payload, java.util.EnumSet.of(StandardOpenOption.READ), "/f", false);
            Files.move(payload, renamedTo);
            OpenFiles.Handle writer = files.open(renamedTo, java.util.EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE),
                    "/g", false);
            assertThat(writer).isSameAs(reader);
            assertThat(files.get(renamedTo)).as("indexed under its new path").isSameAs(reader.file);
            assertThat(files.get(payload)).as("no longer under the old one").isNull();
            writer.file.write(ByteBuffer.wrap(new byte[] {9}), 1);
            ByteBuffer got = ByteBuffer.allocate(10);
            reader.file.read(got, 0);
            assertThat(java.util.Arrays.copyOf(got.array(), got.position())).containsExactly(1, 9, 3);
            files.release(writer, null);
            files.release(reader, null);
            assertThat(files.isEmptyForTests()).isTrue();
        } finally {
            files.closeAll();
        }
    }

    /** Writes {@code length} bytes of {@code fill} at {@code position}, and records them in {@code expected}. */
    private static void write(FileChannel ch, byte[] expected, int position, int length, byte fill) throws IOException {
        byte[] bytes = new byte[length];
        java.util.Arrays.fill(bytes, fill);
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
            ch.write(buf, position + buf.position());
        }
        System.arraycopy(bytes, 0, expected, position, length);
    }
}
