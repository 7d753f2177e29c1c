package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.content.OpenFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An open that joins an open file checks its header, which waits for the file's writes to drain (a
 * long write, the write behind, queued appends). It waits outside the registry of open files: every
 * open, close and stat of every other file needs that registry (an indexer reopening a file cp is
 * writing must not freeze {@code ls -l} of the whole mount).
 */
class JoinWhileWritingTest {
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
    void anOpenOfAnotherFileIsNotHeldUpByAJoinWaitingForALongWrite() throws Exception {
        Files.writeString(fs.getPath("/b.txt"), "bee");
        ExecutorService pool = Executors.newCachedThreadPool();
        try (FileChannel a = FileChannel.open(fs.getPath("/a.txt"), StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            a.write(ByteBuffer.wrap(new byte[5000]));
            ReentrantReadWriteLock lock = lockOf(openFile(a));
            CompletableFuture<Void> writing = new CompletableFuture<>();
            CompletableFuture<Void> done = new CompletableFuture<>();
            // Stands for a long write of a.txt (a big write call, a write behind on a slow store): it holds a.txt's lock.
            Future<?> longWrite = pool.submit(() -> {
                lock.writeLock().lock();
                try {
                    writing.complete(null);
                    done.get(20, TimeUnit.SECONDS);
                } finally {
                    lock.writeLock().unlock();
                }
                return null;
            });
            writing.get(5, TimeUnit.SECONDS);
            Future<Long> joiner = pool.submit(() -> {
                try (FileChannel again = FileChannel.open(fs.getPath("/a.txt"), StandardOpenOption.READ)) {
                    return again.size();
                }
            });
            awaitQueued(lock, 1); // the joiner now waits for a.txt's lock
            Future<Long> other = pool.submit(() -> {
                try (FileChannel b = FileChannel.open(fs.getPath("/b.txt"), StandardOpenOption.READ)) {
                    return b.size() + Files.size(fs.getPath("/b.txt"));
                }
            });
            try {
                assertThat(other.get(3, TimeUnit.SECONDS)).as("an open and a stat of b.txt, not held up by a.txt's write")
                        .isEqualTo(6);
                assertThat(joiner.isDone()).as("the join waits for the write").isFalse();
            } finally {
                done.complete(null);
                longWrite.get(10, TimeUnit.SECONDS);
            }
            assertThat(joiner.get(10, TimeUnit.SECONDS)).as("the join, once the write is done").isEqualTo(5000);
            assertThat(fs.openFiles.get(payloadOf(a))).as("still one open file for a.txt").isSameAs(openFile(a));
        } finally {
            pool.shutdownNow();
        }
        assertThat(fs.openFiles.isEmptyForTests()).isTrue();
    }

    /**
     * The file system closes while a join waits for the file's write: the join, pinning the open file
     * meanwhile, fails as any open after the close does, and leaves no channel open after the close.
     */
    @Test
    void aJoinWaitingWhileTheFileSystemClosesFailsWithClosedFileSystemException() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            FileChannel a = FileChannel.open(fs.getPath("/a.txt"), StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            a.write(ByteBuffer.wrap(new byte[5000]));
            OpenFile file = openFile(a);
            ReentrantReadWriteLock lock = lockOf(file);
            CompletableFuture<Void> writing = new CompletableFuture<>();
            CompletableFuture<Void> done = new CompletableFuture<>();
            Future<?> longWrite = pool.submit(() -> {
                lock.writeLock().lock();
                try {
                    writing.complete(null);
                    done.get(20, TimeUnit.SECONDS);
                } finally {
                    lock.writeLock().unlock();
                }
                return null;
            });
            writing.get(5, TimeUnit.SECONDS);
            Future<FileChannel> joiner = pool.submit(() -> FileChannel.open(fs.getPath("/a.txt"), StandardOpenOption.READ));
            awaitQueued(lock, 1); // the joiner now waits for a.txt's lock, the open file pinned
            Future<?> closing = pool.submit(() -> {
                fs.close();
                return null;
            });
            awaitQueued(lock, 2); // the close now waits for it too
            done.complete(null);
            longWrite.get(10, TimeUnit.SECONDS);
            closing.get(10, TimeUnit.SECONDS);
            assertThatThrownBy(() -> joiner.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(java.nio.file.ClosedFileSystemException.class);
            assertThat(a.isOpen()).isFalse();
            assertThatThrownBy(() -> file.read(ByteBuffer.allocate(1), 0)).as("the open file is closed with the file system")
                    .isInstanceOf(java.nio.channels.ClosedChannelException.class);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * No false alarm: one channel appends (write behind, queued appends) and truncates while other
     * threads keep joining the file and reading its size; the header and length check of each join
     * must never find it rewritten by another program (its writer's next change would be refused).
     */
    @Test
    void joinsDuringAppendsNeverFindTheFileRewritten() throws Exception {
        joinsDuringAppends(fs);
    }

    @Test
    void joinsDuringAppendsNeverFindTheFileRewrittenSivXts() throws Exception {
        try (CofferFileSystem xts = CofferFileSystems.create(tmp.resolve("x"), "pass phrase".toCharArray(),
                new dev.coffer.core.vault.VaultCreationOptions(dev.coffer.core.vault.CipherCombo.SIV_XTS, 1 << 14, 220))) {
            joinsDuringAppends(xts);
        }
    }

    private static void joinsDuringAppends(CofferFileSystem fs) throws Exception {
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicInteger joins = new java.util.concurrent.atomic.AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        long written = 0;
        Path big = fs.getPath("/big.bin");
        try (FileChannel w = FileChannel.open(big, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            Future<?> joiner = pool.submit(() -> {
                while (!stop.get()) {
                    try (FileChannel r = FileChannel.open(big, StandardOpenOption.READ)) {
                        joins.incrementAndGet();
                        r.read(ByteBuffer.allocate(100), 0);
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                        return;
                    }
                }
            });
            Future<?> stat = pool.submit(() -> {
                while (!stop.get()) {
                    try {
                        Files.size(big);
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                        return;
                    }
                }
            });
            byte[] chunk = new byte[128 * 1024];
            int round = 0;
            while ((System.nanoTime() < deadline || joins.get() <= 10) && failure.get() == null) {
                if (++round % 50 == 0) {
                    w.truncate(0); // then starts again from an empty file: a new header
                    w.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5}), 0); // SIV_XTS: a tiny file, rekeyed
                    w.write(ByteBuffer.wrap(new byte[] {6, 7, 8}), 5);
                    written = 8;
                }
                java.util.Arrays.fill(chunk, (byte) round);
                ByteBuffer b = ByteBuffer.wrap(chunk);
                while (b.hasRemaining()) {
                    w.write(b, written + b.position());
                }
                written += chunk.length;
            }
            stop.set(true);
            joiner.get(10, TimeUnit.SECONDS);
            stat.get(10, TimeUnit.SECONDS);
            w.force(true);
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        assertThat(failure.get()).isNull();
        assertThat(joins.get()).isGreaterThan(10);
        assertThat(fs.openFiles.isEmptyForTests()).isTrue();
        assertThat(Files.size(big)).isEqualTo(written);
    }

    private Path payloadOf(FileChannel ch) throws IOException {
        try (var all = Files.walk(vault)) {
            return all.filter(p -> p.toString().endsWith(".c9r")).filter(p -> fs.openFiles.get(p) != null).findFirst()
                    .orElseThrow();
        }
    }

    private OpenFile openFile(FileChannel ch) throws IOException {
        return fs.openFiles.get(payloadOf(ch));
    }

    /** Waits (at most 10 s) until {@code threads} threads wait for {@code lock}, instead of sleeping long enough. */
    private static void awaitQueued(ReentrantReadWriteLock lock, int threads) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (lock.getQueueLength() < threads) {
            assertThat(System.nanoTime()).as("%d threads waiting for the lock", threads).isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    private static ReentrantReadWriteLock lockOf(OpenFile file) throws ReflectiveOperationException {
        java.lang.reflect.Field f = OpenFile.class.getDeclaredField("rwLock");
        f.setAccessible(true);
        return (ReentrantReadWriteLock) f.get(file);
    }
}
