package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rescue's copy that fails part-way (here: the orphan's ciphertext damaged, so a read of it fails
 * authentication): what it copied is kept, an empty copy of a non-empty orphan is removed.
 */
class FailedRescueCopyTest {
    private static final String PASS = "pass phrase";
    @TempDir
    Path tmp;
    private CofferFileSystem fs;
    private final byte[] data = new byte[1 << 20];

    @BeforeEach
    void vault() throws IOException {
        fs = CofferFileSystems.create(tmp.resolve("v"), PASS.toCharArray(), VaultOnTempDirContractTest.FAST);
        new Random(37).nextBytes(data);
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    @Test
    void aCopyThatFailedBeforeItsFirstByteIsRemoved() throws IOException {
        closeOrphanDamagedAt(1000); // in the first unit
        assertThat(names()).as("no conflict copy that looks like a complete copy of an empty file").isEmpty();
    }

    @Test
    void anEmptyFailedCopyIsRemovedAlsoWhenTheVaultLocks() throws IOException {
        FileChannel reader = orphanDamagedAt(1000);
        fs.close(); // rescues the orphan its reader still has open
        fs = CofferFileSystems.open(tmp.resolve("v"), PASS.toCharArray(), false);
        assertThat(reader.isOpen()).isFalse();
        assertThat(names()).isEmpty();
    }

    @Test
    void aCopyThatFailedBeforeItsFirstByteIsToldAsNotKept() throws IOException {
        List<ConflictCopy> told = new CopyOnWriteArrayList<>();
        fs.onConflictCopies(told::add);
        closeOrphanDamagedAt(1000);
        assertThat(told).containsExactly(ConflictCopy.notKept("/notes.txt"));
    }

    @Test
    void aCopyThatFailedPartWayIsToldAsKeptInPart() throws IOException {
        List<ConflictCopy> told = new CopyOnWriteArrayList<>();
        fs.onConflictCopies(told::add);
        closeOrphanDamagedAt(700_000);
        assertThat(told).containsExactly(ConflictCopy.keptInPart("/notes.txt", "/notes.txt (Conflict 1)"));
        assertThat(told.get(0).toString()).doesNotContain("notes");
    }

    @Test
    void aCopyThatFailedPartWayKeepsWhatItCopied() throws IOException {
        closeOrphanDamagedAt(700_000);
        assertThat(names()).containsExactly("notes.txt (Conflict 1)");
        byte[] copy = Files.readAllBytes(fs.getPath("/notes.txt (Conflict 1)"));
        assertThat(copy.length).as("bytes copied before the damaged unit").isPositive().isLessThan(700_000);
        assertThat(copy).isEqualTo(Arrays.copyOf(data, copy.length));
    }

    /**
     * Writes {@link #data} to an open file, lets a sync client delete its ciphertext (a hard link keeps
     * the inode reachable to damage it at {@code offset}), then closes the program's last channel.
     */
    private void closeOrphanDamagedAt(long offset) throws IOException {
        orphanDamagedAt(offset).close(); // the rescue's copy fails at the damaged unit
    }

    /** As {@link #closeOrphanDamagedAt}, but returns the program's channel, still open. */
    private FileChannel orphanDamagedAt(long offset) throws IOException {
        Path file = fs.getPath("/notes.txt");
        Files.writeString(file, "");
        FileChannel reader = FileChannel.open(file, StandardOpenOption.READ);
        try (FileChannel writer = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(data);
            while (b.hasRemaining()) {
                writer.write(b);
            }
        }
        Path payload = fs.resolver.locate(fs.getPath("/notes.txt")).entry().payload();
        Path link = Files.createLink(tmp.resolve("same inode.c9r"), payload);
        Files.delete(payload);
        try (FileChannel raw = FileChannel.open(link, StandardOpenOption.WRITE)) {
            raw.write(ByteBuffer.wrap(new byte[64]), offset);
        }
        return reader;
    }

    private List<String> names() throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> in = Files.list(fs.getPath("/"))) {
            in.forEach(p -> names.add(p.getFileName().toString()));
        }
        return names;
    }
}
