package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How real applications save, replayed on a mount of a real vault a few hundred times each; after
 * every save the document is byte-identical to what was saved, a reader that opened the previous
 * version still reads that version, and nothing but the document is left in its folder.
 */
class SavePatternsTest {
    private static final int SAVES = 300;

    @TempDir
    Path tmp;

    private VaultMount vault;
    private Path mnt;

    @BeforeEach
    void mount() throws IOException {
        vault = new VaultMount(tmp);
        mnt = vault.mnt;
    }

    @AfterEach
    void unmount() throws Exception {
        vault.close();
    }

    /** A new version: random bytes, around the vault's 4096 byte units now and then. */
    private static byte[] version(Random rnd) {
        int size = rnd.nextBoolean() ? rnd.nextInt(40_000) : 4096 * (1 + rnd.nextInt(8)) + rnd.nextInt(3) - 1;
        byte[] b = new byte[size];
        rnd.nextBytes(b);
        return b;
    }

    private static void writeAndSync(Path file, byte[] content) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            // applications write in pieces: 8 KiB at a time here
            for (int off = 0; off < content.length; off += 8192) {
                ch.write(ByteBuffer.wrap(content, off, Math.min(8192, content.length - off)));
            }
            ch.force(true);
        }
    }

    private static byte[] readAll(FileChannel ch, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length + 1);
        while (ch.read(b, b.position()) > 0) {
            // until the end
        }
        b.flip();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private void assertOnly(Path folder, String... names) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).containsExactlyInAnyOrder(names);
        }
    }

    /**
     * Word on Windows: the owner file {@code ~$name} while the document is open; a save writes the
     * new version to {@code ~WRL0001.tmp}, renames the original to a backup name, renames the temp
     * file to the original name, and deletes the backup. Windows renames never replace, so neither
     * does this one.
     */
    @Test
    void wordOnWindows() throws IOException {
        Path folder = Files.createDirectory(mnt.resolve("Reports"));
        Path doc = folder.resolve("Quarterly report.docx");
        Path owner = folder.resolve("~$arterly report.docx");
        Random rnd = new Random(21);
        byte[] last = version(rnd);
        writeAndSync(doc, last);
        for (int i = 0; i < SAVES; i++) {
            if (i % 25 == 0) { // the document is opened again now and then
                Files.deleteIfExists(owner);
                Files.write(owner, ("user " + i).getBytes(java.nio.charset.StandardCharsets.UTF_16LE), StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE);
            }
            byte[] content = version(rnd);
            Path temp = folder.resolve("~WRL0001.tmp");
            Path backup = folder.resolve("~WRL" + String.format("%04d", 2 + i % 7) + ".tmp");
            try (FileChannel reader = FileChannel.open(doc)) { // Word keeps the document open
                writeAndSync(temp, content);
                Files.move(doc, backup);
                Files.move(temp, doc);
                assertThat(readAll(reader, last.length)).as("the open original, save %d", i).isEqualTo(last);
                Files.delete(backup);
            }
            assertThat(Files.readAllBytes(doc)).as("save %d", i).isEqualTo(content);
            assertOnly(folder, doc.getFileName().toString(), owner.getFileName().toString());
            last = content;
        }
        Files.delete(owner);
        assertOnly(folder, doc.getFileName().toString());
        assertOnly(mnt, "Reports");
    }

    /**
     * macOS apps (NSDocument's safe save): the new version is written into a temporary folder next to
     * the document, {@code <name>.sb-<random>}, then swapped into place by rename (the original
     * goes into that folder, the new version out of it; or, every third save, the new version is
     * renamed straight over the original), and the folder with whatever is left in it is removed.
     */
    @Test
    void macOsSafeSave() throws IOException {
        Path folder = Files.createDirectories(mnt.resolve("Documents/Letters"));
        Path doc = folder.resolve("Letter.rtf");
        Random rnd = new Random(22);
        byte[] last = version(rnd);
        writeAndSync(doc, last);
        for (int i = 0; i < SAVES; i++) {
            byte[] content = version(rnd);
            byte[] random = new byte[4];
            rnd.nextBytes(random);
            Path sb = Files.createDirectory(folder.resolve("Letter.rtf.sb-" + HexFormat.of().formatHex(random) + "-" + i));
            Path fresh = sb.resolve("Letter.rtf");
            try (FileChannel reader = FileChannel.open(doc)) {
                writeAndSync(fresh, content);
                if (i % 3 == 2) {
                    Files.move(fresh, doc, StandardCopyOption.ATOMIC_MOVE);
                } else {
                    Path old = sb.resolve("Letter (original).rtf");
                    Files.move(doc, old, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(fresh, doc, StandardCopyOption.ATOMIC_MOVE);
                    assertThat(Files.readAllBytes(old)).as("the original in the folder, save %d", i).isEqualTo(last);
                    Files.delete(old);
                }
                assertThat(readAll(reader, last.length)).as("the open original, save %d", i).isEqualTo(last);
            }
            assertOnly(sb);
            Files.delete(sb);
            assertThat(Files.readAllBytes(doc)).as("save %d", i).isEqualTo(content);
            assertOnly(folder, "Letter.rtf");
            last = content;
        }
        assertOnly(mnt, "Documents");
    }
}
