package dev.coffer.core.nio;

import static dev.coffer.core.nio.OrphanFixtures.lockOf;
import static dev.coffer.core.nio.OrphanFixtures.names;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rescue races and conflict names found by the second review (session 37). */
class RescueLinksAndLockTest {
    private static final String PASS = "pass phrase";
    @TempDir
    Path tmp;
    private Path vault;
    private CofferFileSystem fs;
    private dev.coffer.core.content.OpenFile lastOrphan;

    @BeforeEach
    void vault() throws IOException {
        vault = tmp.resolve("v");
        fs = CofferFileSystems.create(vault, PASS.toCharArray(), VaultOnTempDirContractTest.FAST);
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    /** A dangling symlink named like the first conflict name: the copy is written at the link's target. */
    @Test
    void rescueThroughDanglingSymlinkLandsAtItsTarget() throws IOException {
        Files.createSymbolicLink(fs.getPath("/notes.txt (Conflict 1)"), fs.getPath("elsewhere.txt"));
        FileChannel reader = orphan("the program's bytes".getBytes(StandardCharsets.UTF_8), -1);
        reader.close();
        // expected: a new conflict file "notes.txt (Conflict 2)" with the bytes, the user's link untouched
        assertThat(names(fs, "/")).contains("notes.txt (Conflict 2)");
    }

    /** Same link, and the copy fails before its first byte: removeEmpty deletes the user's link, keeps the empty target. */
    @Test
    void failedRescueThroughDanglingSymlinkDeletesTheLink() throws IOException {
        Files.createSymbolicLink(fs.getPath("/notes.txt (Conflict 1)"), fs.getPath("elsewhere.txt"));
        byte[] data = new byte[1 << 20];
        new Random(1).nextBytes(data);
        FileChannel reader = orphan(data, 1000);
        reader.close();
        List<String> n = names(fs, "/");
        assertThat(n).as("the user's symlink").contains("notes.txt (Conflict 1)");
        assertThat(n).as("no stray empty file").doesNotContain("elsewhere.txt");
    }

    /**
     * The rescuer counts its rescue done (rescuesRunning--) before it closes the orphan: fs.close()
     * returns, keys destroyed, while the orphan's OpenFile (its ciphertext channel, its cryptor) is still open.
     */
    @Test
    void closeReturnsBeforeARescuedOrphanIsClosed() throws Exception {
        FileChannel reader = orphan("the program's bytes".getBytes(StandardCharsets.UTF_8), -1);
        ReentrantReadWriteLock lock = lockOf(lastOrphan);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Future<?> closing;
        boolean closedEarly;
        try {
            lock.readLock().lock(); // copies read (shared); the orphan's close (write lock) waits
            Future<?> release;
            try {
                release = pool.submit(() -> {
                    reader.close();
                    return null;
                });
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (!lock.hasQueuedThreads() && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                assertThat(lock.hasQueuedThreads()).as("the release waits to close the orphan, after its copy").isTrue();
                closing = pool.submit(() -> {
                    fs.close();
                    return null;
                });
                Thread.sleep(500);
                closedEarly = closing.isDone();
            } finally {
                lock.readLock().unlock();
            }
            closing.get(20, TimeUnit.SECONDS);
            release.get(20, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertThat(closedEarly).as("fs.close() returned (keys destroyed) while the rescued orphan was still open").isFalse();
    }

    /** Damage in the 25th unit of the first 128 KiB chunk: the 24 readable units before it are kept. */
    @Test
    void damageInsideAChunkKeepsTheReadableUnitsBeforeIt() throws IOException {
        byte[] data = new byte[1 << 20];
        new Random(2).nextBytes(data);
        orphan(data, 100_000).close();
        assertThat(names(fs, "/")).containsExactly("notes.txt (Conflict 1)");
        byte[] kept = Files.readAllBytes(fs.getPath("/notes.txt (Conflict 1)"));
        assertThat(kept).hasSize(24 * 4096).isEqualTo(java.util.Arrays.copyOf(data, 24 * 4096));
    }

    /**
     * A sync client replaces notes.txt under a program's open file; the user then deletes the other
     * device's version through Coffer: Coffer deleted that file, not the program's, which is kept.
     */
    @Test
    void deletingTheSyncedReplacementKeepsTheOrphansWrites() throws IOException {
        FileChannel program = programWritingUnderAReplacement();
        Files.delete(fs.getPath("/notes.txt")); // the user deletes the other device's version
        program.close();
        assertThat(names(fs, "/")).containsExactly("notes.txt (Conflict 1)");
        assertThat(Files.readString(fs.getPath("/notes.txt (Conflict 1)"))).isEqualTo("the program's bytes");
    }

    /** As above, but the user renames the other device's version: it moves, the program's bytes are kept beside it. */
    @Test
    void renamingTheSyncedReplacementKeepsTheOrphansWritesAndMovesOnlyIt() throws IOException {
        FileChannel program = programWritingUnderAReplacement();
        Files.move(fs.getPath("/notes.txt"), fs.getPath("/renamed.txt"));
        program.write(ByteBuffer.wrap(" and more".getBytes(StandardCharsets.UTF_8)));
        program.close();
        assertThat(names(fs, "/")).containsExactly("notes.txt (Conflict 1)", "renamed.txt");
        assertThat(Files.readString(fs.getPath("/renamed.txt"))).isEqualTo("other device");
        assertThat(Files.readString(fs.getPath("/notes.txt (Conflict 1)"))).isEqualTo("the program's bytes and more");
    }

    /** Control: Coffer's own delete of the file a program has open discards its writes (POSIX), no copy. */
    @Test
    void deletingTheProgramsOwnFileKeepsNothing() throws IOException {
        CofferPath file = fs.getPath("/notes.txt");
        Files.writeString(file, "");
        FileChannel program = FileChannel.open(file, StandardOpenOption.WRITE);
        program.write(ByteBuffer.wrap("scratch".getBytes(StandardCharsets.UTF_8)));
        Files.delete(file);
        program.write(ByteBuffer.wrap(" more".getBytes(StandardCharsets.UTF_8)));
        program.close();
        assertThat(names(fs, "/")).isEmpty();
    }

    /** A program's channel on notes.txt, written, whose ciphertext a sync client then replaced with another device's version. */
    private FileChannel programWritingUnderAReplacement() throws IOException {
        CofferPath file = fs.getPath("/notes.txt");
        Files.writeString(file, "");
        FileChannel program = FileChannel.open(file, StandardOpenOption.WRITE);
        program.write(ByteBuffer.wrap("the program's bytes".getBytes(StandardCharsets.UTF_8)));
        CofferPath other = fs.getPath("/other");
        Files.writeString(other, "other device");
        Path synced = Files.copy(fs.resolver.locate(other).entry().payload(), tmp.resolve("synced.c9r"));
        Files.delete(other);
        Path payload = fs.resolver.locate(file).entry().payload();
        Files.move(synced, payload, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return program;
    }

    /** A changed open file whose ciphertext a sync client deleted; damaged at {@code damageAt} unless negative. */
    private FileChannel orphan(byte[] data, long damageAt) throws IOException {
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
        lastOrphan = fs.openFiles.get(payload);
        if (damageAt >= 0) {
            Path link = Files.createLink(tmp.resolve("same inode.c9r"), payload);
            Files.delete(payload);
            try (FileChannel raw = FileChannel.open(link, StandardOpenOption.WRITE)) {
                raw.write(ByteBuffer.wrap(new byte[64]), damageAt);
            }
        } else {
            Files.delete(payload);
        }
        return reader;
    }


}
