package dev.coffer.core.nio;

import static dev.coffer.core.nio.OrphanFixtures.contentsByName;
import static dev.coffer.core.nio.OrphanFixtures.lockOf;
import static dev.coffer.core.nio.OrphanFixtures.orphanHeldByAReader;
import static dev.coffer.core.nio.OrphanFixtures.names;
import static dev.coffer.core.nio.OrphanFixtures.otherDevicesVersion;
import static dev.coffer.core.nio.OrphanFixtures.payload;
import static dev.coffer.core.nio.OrphanFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.OrphanFixtures.Orphan;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Races between an orphan's rescue (OpenFiles, vault-format.md 5.4) and other closes. */
class RescueRacesTest {
    private static final String PASS = "pass phrase";
    @TempDir
    Path tmp;
    private Path vault;
    private CofferFileSystem fs;

    @BeforeEach
    void vault() throws IOException {
        vault = tmp.resolve("v");
        fs = CofferFileSystems.create(vault, PASS.toCharArray(), VaultOnTempDirContractTest.FAST);
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    /**
     * The file system closes while an open is pinning an orphan whose program already closed: closeAll
     * rescues it, and the join, finding the file system closed, drops its pin and closes the orphan's
     * OpenFile under closeAll's copy.
     */
    @Test
    void closeAllRescueIsNotCutShortByAJoinDroppingItsPin() throws Exception {
        Path file = fs.getPath("/notes.txt");
        Files.writeString(file, "");
        byte[] big = new byte[8 << 20];
        Arrays.fill(big, (byte) 'x');
        Path synced = otherDevicesVersion(fs, tmp, "synced");
        FileChannel reader = FileChannel.open(file, StandardOpenOption.READ);
        try (FileChannel writer = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(big);
            while (b.hasRemaining()) {
                writer.write(b);
            }
        }
        ReentrantReadWriteLock lock = lockOf(fs.openFiles.get(payload(fs, "/notes.txt")));
        Files.move(synced, payload(fs, "/notes.txt"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> join;
            Future<?> closing;
            lock.writeLock().lock();
            try {
                join = pool.submit(() -> {
                    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                        return ch.size();
                    }
                });
                await(() -> lock.getQueueLength() >= 1);
                reader.close(); // the program's last channel: the join's pin is the last reference
                closing = pool.submit(() -> {
                    fs.close();
                    return null;
                });
                await(() -> lock.getQueueLength() >= 2); // closeAll's rescue waits to read the orphan
            } finally {
                lock.writeLock().unlock();
            }
            try {
                join.get(20, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException expected) {
                // ClosedFileSystemException
            }
            closing.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        fs = CofferFileSystems.open(vault, PASS.toCharArray(), false);
        assertThat(names(fs, "/")).contains("notes.txt (Conflict 1)");
        byte[] copy = Files.readAllBytes(fs.getPath("/notes.txt (Conflict 1)"));
        assertThat(copy.length).as("the conflict copy's length").isEqualTo(big.length);
    }

    /**
     * While a rescue copies orphan A, its open of "A (Conflict 1)" pins orphan B (a file of that name
     * whose ciphertext a sync client deleted); B's program closes meanwhile, so the rescue's dropped pin
     * is B's last reference: RESCUING makes startRescue settle B without a copy.
     */
    @Test
    void anOrphanWhoseLastPinIsDroppedByARescuesOwnOpenIsKeptToo() throws Exception {
        Orphan b = orphanHeldByAReader(fs, "/notes.txt (Conflict 1)", "B's bytes"); // a sync client deletes B underneath
        FileChannel bReader = b.reader();
        ReentrantReadWriteLock bLock = b.lock();

        Path a = fs.getPath("/notes.txt");
        Files.writeString(a, "");
        FileChannel aWriter = FileChannel.open(a, StandardOpenOption.WRITE);
        write(aWriter, "A's bytes");
        Files.delete(payload(fs, "/notes.txt")); // and A

        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<?> closingA;
            bLock.writeLock().lock();
            try {
                closingA = pool.submit(() -> {
                    aWriter.close(); // rescues A: opens "notes.txt (Conflict 1)", pinning B
                    return null;
                });
                await(() -> bLock.getQueueLength() >= 1);
                bReader.close(); // B's program closes: the rescue's pin is B's last reference
            } finally {
                bLock.writeLock().unlock();
            }
            closingA.get(20, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        List<String> contents = contentsByName(fs, "/");
        assertThat(contents).as("every conflict copy").anySatisfy(s -> assertThat(s).endsWith("=A's bytes"));
        assertThat(contents).as("every conflict copy").anySatisfy(s -> assertThat(s).endsWith("=B's bytes"));
    }

    /**
     * As above, but the vault is locked while the rescue's open of "A (Conflict 1)" checks B's header:
     * that open must still finish (the copy is part of the close), and both A and B are kept.
     */
    @Test
    void aRescueWhoseOpenJoinsWhileTheVaultLocksKeepsBothOrphans() throws Exception {
        Orphan b = orphanHeldByAReader(fs, "/notes.txt (Conflict 1)", "B's bytes"); // a sync client deletes B underneath
        FileChannel bReader = b.reader();
        ReentrantReadWriteLock bLock = b.lock();

        Path a = fs.getPath("/notes.txt");
        Files.writeString(a, "");
        FileChannel aWriter = FileChannel.open(a, StandardOpenOption.WRITE);
        write(aWriter, "A's bytes");
        Files.delete(payload(fs, "/notes.txt"));

        ExecutorService pool = Executors.newFixedThreadPool(2);
        Thread[] closer = new Thread[1];
        try {
            Future<?> closingA;
            Future<?> closing;
            bLock.writeLock().lock();
            try {
                closingA = pool.submit(() -> {
                    aWriter.close(); // rescues A: its open of "notes.txt (Conflict 1)" pins B
                    return null;
                });
                await(() -> bLock.getQueueLength() >= 1);
                bReader.close();
                closing = pool.submit(() -> {
                    closer[0] = Thread.currentThread();
                    fs.close(); // waits for A's rescue
                    return null;
                });
                await(() -> closer[0] != null && closer[0].getState() == Thread.State.WAITING);
            } finally {
                bLock.writeLock().unlock();
            }
            closingA.get(20, TimeUnit.SECONDS);
            closing.get(20, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        fs = CofferFileSystems.open(vault, PASS.toCharArray(), false);
        List<String> contents = contentsByName(fs, "/");
        assertThat(contents).as("every conflict copy").anySatisfy(s -> assertThat(s).endsWith("=A's bytes"));
        assertThat(contents).as("every conflict copy").anySatisfy(s -> assertThat(s).endsWith("=B's bytes"));
    }

    /**
     * A rescue runs on a program's closing thread (a FUSE release) when the vault is locked: closeAll
     * closes every registered channel, the rescue's own copy channel among them, before it waits for
     * the rescue, which then fails to write its copy.
     */
    @Test
    void lockingTheVaultDuringARescueDoesNotCloseTheCopyUnderIt() throws Exception {
        Orphan orphan = orphanHeldByAReader(fs, "/notes.txt", "the program's bytes"); // a sync client deletes it underneath
        FileChannel reader = orphan.reader();
        ReentrantReadWriteLock lock = orphan.lock();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Thread[] closer = new Thread[1];
        try {
            Future<?> release;
            Future<?> closing;
            lock.writeLock().lock(); // stands for a slow read of a big orphan
            try {
                release = pool.submit(() -> {
                    reader.close(); // the last close: rescues, its copy channel registered, then reads
                    return null;
                });
                await(() -> lock.getQueueLength() >= 1);
                closing = pool.submit(() -> {
                    closer[0] = Thread.currentThread();
                    fs.close(); // the vault is locked meanwhile
                    return null;
                });
                await(() -> closer[0] != null && closer[0].getState() == Thread.State.WAITING);
                Thread.sleep(300);
            } finally {
                lock.writeLock().unlock();
            }
            release.get(20, TimeUnit.SECONDS);
            closing.get(20, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        fs = CofferFileSystems.open(vault, PASS.toCharArray(), false);
        assertThat(names(fs, "/")).containsExactly("notes.txt (Conflict 1)");
        assertThat(Files.readString(fs.getPath("/notes.txt (Conflict 1)"))).isEqualTo("the program's bytes");
    }

    private interface Cond {
        boolean ok();
    }

    private static void await(Cond c) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!c.ok() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(c.ok()).as("waited").isTrue();
    }





}
