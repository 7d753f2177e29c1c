package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sync client replaces or deletes a ciphertext file while a program still has the cleartext file
 * open: later opens of the path work on the file the path now names, never on the orphaned one the
 * open channel keeps (whose content would be lost with its last close).
 */
class ReplacedUnderneathTest {
    @TempDir
    Path tmp;
    private CofferFileSystem fs;
    private Path file;

    @BeforeEach
    void vault() throws IOException {
        fs = CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST);
        file = fs.getPath("/notes.txt");
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    @Test
    void anOpenFileReplacedByASyncClientIsNotJoinedByLaterOpens() throws IOException {
        Files.writeString(file, "version 1");
        Path ciphertext = TestVaults.onlyCiphertextFile(tmp.resolve("v"));
        Path synced = Files.copy(ciphertext, tmp.resolve("synced.c9r")); // what the sync client will bring back
        Files.writeString(file, "the second version");
        try (FileChannel open = FileChannel.open(file, StandardOpenOption.READ)) {
            Files.move(synced, ciphertext, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

            assertThat(Files.size(file)).as("a stat reports the file on disk").isEqualTo("version 1".length());
            assertThat(Files.readString(file)).as("a new open reads the file on disk").isEqualTo("version 1");
            Files.writeString(file, "version 3, saved while the old one was still open");
            assertThat(read(open)).as("the open channel keeps its file").isEqualTo("the second version");
        }
        assertThat(Files.readString(file)).as("the save survives the old channel's close")
                .isEqualTo("version 3, saved while the old one was still open");
    }

    @Test
    void anOpenFileDeletedUnderneathIsCreatedAfreshByTheNextSave() throws IOException {
        Files.writeString(file, "old");
        Path ciphertext = TestVaults.onlyCiphertextFile(tmp.resolve("v"));
        try (FileChannel open = FileChannel.open(file, StandardOpenOption.READ)) {
            Files.delete(ciphertext);
            Files.writeString(file, "new content", StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            assertThat(read(open)).isEqualTo("old");
        }
        assertThat(Files.readString(file)).isEqualTo("new content");
        assertThat(TestVaults.onlyCiphertextFile(tmp.resolve("v"))).exists();
    }

    @Test
    void opensOfAnUnchangedFileStillShareIt() throws IOException {
        Files.writeString(file, "shared");
        try (FileChannel writer = FileChannel.open(file, StandardOpenOption.WRITE);
                FileChannel reader = FileChannel.open(file, StandardOpenOption.READ)) {
            writer.write(ByteBuffer.wrap("SHARED".getBytes(StandardCharsets.UTF_8)), 0);
            assertThat(read(reader)).as("one open file: the reader sees the writer's bytes at once").isEqualTo("SHARED");
            assertThat(Files.size(file)).isEqualTo(6);
        }
    }

    private static String read(FileChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(1024);
        ch.read(buf, 0);
        return new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
    }
}
