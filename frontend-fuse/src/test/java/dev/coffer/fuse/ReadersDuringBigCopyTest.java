package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What indexers and thumbnailers do to a mount while a big file is copied into it: eight threads
 * walk a tree inside the mount in a loop, stat every entry and read the first 64 KiB of every file
 * (and of the growing copy), while another thread keeps replacing files of that tree (editor save
 * pattern, and delete then create again) and {@code cp} copies a 2 GiB file from {@code /dev/shm}
 * into the mount. The copy must end with the right content (read back and compared byte for byte
 * with the source's blocks, made again), every read must return consistent content, the readers
 * may meet no error but ENOENT (a file replaced or deleted between listing and opening), and the mount must then unmount without force (not busy) and be
 * gone from the mount table (not stale). {@code -Dcoffer.bigcopy.mib} changes the size.
 */
class ReadersDuringBigCopyTest {
    private static final long SIZE = Long.getLong("coffer.bigcopy.mib", 2048L) << 20;
    private static final int READERS = 8;
    private static final int HEAD = 64 << 10;
    private static final long MAGIC = 0x436f66666572L; // "Coffer"

    @TempDir
    Path tmp;

    private VaultMount vault;
    private Path source;

    @BeforeEach
    void mount() throws IOException {
        vault = new VaultMount(tmp);
    }

    @AfterEach
    void unmount() throws Exception {
        try {
            vault.close();
        } finally {
            if (source != null) {
                Files.deleteIfExists(source);
            }
        }
    }

    /** A file's content: a header (magic, seed) and then bytes from that seed; every prefix checks itself. */
    private static byte[] content(long seed, int size) {
        byte[] b = new byte[Math.max(size, 16)];
        new Random(seed).nextBytes(b);
        ByteBuffer.wrap(b).putLong(MAGIC).putLong(seed);
        return size >= 16 ? b : Arrays.copyOf(b, 16);
    }

    /** Null if {@code head} (what a reader got) is a prefix of some version's content, else what is wrong. */
    private static String check(byte[] head, int length) {
        if (length < 16) {
            return length == 0 ? null : "a file of " + length + " bytes"; // files are written whole: 0 bytes while being created
        }
        ByteBuffer h = ByteBuffer.wrap(head);
        if (h.getLong() != MAGIC) {
            return "no header";
        }
        long seed = h.getLong();
        byte[] expected = content(seed, length);
        return Arrays.equals(head, 0, length, expected, 0, length) ? null : "content differs from version " + seed;
    }

    private static int readHead(Path file, byte[] into) throws IOException {
        try (FileChannel ch = FileChannel.open(file)) {
            ByteBuffer b = ByteBuffer.wrap(into);
            while (b.hasRemaining() && ch.read(b) > 0) {
                // until 64 KiB or the end
            }
            return b.position();
        }
    }

    /** The MiB that the source repeats. */
    private static byte[] randomMiB() {
        byte[] block = new byte[1 << 20];
        new Random(5).nextBytes(block);
        return block;
    }

    /** {@code block} made the source's MiB at {@code off}: every 4 KiB unit stamped with its index in the file. */
    private static ByteBuffer stamp(byte[] block, long off) {
        ByteBuffer buf = ByteBuffer.wrap(block);
        for (int unit = 0; unit < block.length; unit += 4096) {
            buf.putLong(unit, (off + unit) / 4096);
        }
        return buf;
    }

    /** Reads {@code copy} whole and compares it with the source's blocks; the first offset that differs, or -1. */
    private static long firstDifference(Path copy) throws IOException {
        byte[] expected = randomMiB();
        ByteBuffer got = ByteBuffer.allocate(expected.length);
        try (FileChannel in = FileChannel.open(copy)) {
            for (long off = 0; off < SIZE; off += expected.length) {
                got.clear();
                while (got.hasRemaining() && in.read(got) > 0) {
                    // a whole MiB, short only at the end of the file
                }
                stamp(expected, off);
                int at = Arrays.mismatch(got.array(), 0, got.position(), expected, 0, expected.length);
                if (at >= 0) {
                    return off + at;
                }
            }
            return in.read(ByteBuffer.allocate(1)) < 0 ? -1 : SIZE;
        }
    }

    @Test
    void readersAndAReplacerWhileTwoGiBAreCopiedIn() throws Exception {
        Path mnt = vault.mnt;
        // the source, on /dev/shm: a random MiB repeated, every 4 KiB unit stamped with its index
        // (incompressible, and regenerated block by block to check the copy against, no digest needed)
        source = Files.createTempFile(Path.of("/dev/shm"), "coffer-bigcopy", ".bin");
        byte[] block = randomMiB();
        try (FileChannel out = FileChannel.open(source, StandardOpenOption.WRITE)) {
            for (long off = 0; off < SIZE; off += block.length) {
                ByteBuffer buf = stamp(block, off);
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
            }
        }
        byte[] bigHead = Arrays.copyOf(stamp(block, 0).array(), HEAD);

        // the tree that the readers index: 6 folders of 20 files, 0 to 200 KiB
        Random rnd = new Random(6);
        List<Path> files = new ArrayList<>();
        for (int d = 0; d < 6; d++) {
            Path dir = Files.createDirectories(mnt.resolve("tree/folder " + d + (d % 2 == 0 ? "/inner" : "")));
            for (int f = 0; f < 20; f++) {
                Path file = dir.resolve("photo " + f + ".jpg");
                Files.write(file, content(rnd.nextLong(), rnd.nextInt(200_000)));
                files.add(file);
            }
        }

        AtomicBoolean stop = new AtomicBoolean();
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        AtomicLong reads = new AtomicLong();
        AtomicLong enoent = new AtomicLong();
        AtomicLong bigReads = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < READERS; r++) {
            Thread t = new Thread(() -> {
                byte[] head = new byte[HEAD];
                while (!stop.get()) {
                    try {
                        List<Path> entries;
                        try (Stream<Path> s = Files.walk(mnt)) {
                            entries = s.toList();
                        } catch (IOException | java.io.UncheckedIOException e) {
                            if (e instanceof NoSuchFileException || e.getCause() instanceof NoSuchFileException) {
                                enoent.incrementAndGet(); // a folder's entry went while the walk reached it
                                continue;
                            }
                            throw e;
                        }
                        for (Path p : entries) {
                            try {
                                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                                if (!a.isRegularFile()) {
                                    continue;
                                }
                                int n = readHead(p, head);
                                reads.incrementAndGet();
                                if (p.getFileName().toString().equals("big.bin")) {
                                    bigReads.incrementAndGet();
                                    if (!Arrays.equals(head, 0, n, bigHead, 0, n)) {
                                        errors.add("the copy's first " + n + " bytes differ from the source's");
                                    }
                                } else {
                                    String wrong = check(head, n);
                                    if (wrong != null) {
                                        errors.add(mnt.relativize(p) + ": " + wrong);
                                    }
                                }
                            } catch (NoSuchFileException e) {
                                enoent.incrementAndGet();
                            }
                        }
                    } catch (Throwable e) {
                        errors.add(e.toString());
                    }
                }
            }, "reader " + r);
            threads.add(t);
        }
        AtomicLong replaced = new AtomicLong();
        Thread replacer = new Thread(() -> {
            Random r = new Random(7);
            while (!stop.get()) {
                try {
                    Path file = files.get(r.nextInt(files.size()));
                    byte[] next = content(r.nextLong(), r.nextInt(200_000));
                    if (r.nextInt(4) == 0) {
                        Files.delete(file);
                        Files.write(file, next, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    } else {
                        Path temp = file.resolveSibling("." + file.getFileName() + ".tmp");
                        Files.write(temp, next, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
                    }
                    replaced.incrementAndGet();
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                } catch (Throwable e) {
                    errors.add("replacing: " + e);
                }
            }
        }, "replacer");
        threads.add(replacer);
        threads.forEach(Thread::start);
        long start = System.nanoTime();
        try {
            Shell.ok(tmp, "cp", source.toString(), mnt.resolve("big.bin").toString());
        } finally {
            stop.set(true);
            for (Thread t : threads) {
                t.join(60_000);
            }
        }
        long copyMillis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("copied %d MiB in %d ms; %d reads (%d of the copy), %d ENOENT, %d files replaced%n", SIZE >> 20,
                copyMillis, reads.get(), bigReads.get(), enoent.get(), replaced.get());
        assertThat(threads).noneMatch(Thread::isAlive);
        assertThat(errors).as("errors the readers and the replacer met").isEmpty();
        assertThat(reads.get()).as("files read").isGreaterThan(1_000);
        assertThat(bigReads.get()).as("reads of the copy while it grew").isPositive();
        assertThat(replaced.get()).as("files replaced").isGreaterThan(50);

        assertThat(Files.size(mnt.resolve("big.bin"))).isEqualTo(SIZE);
        assertThat(firstDifference(mnt.resolve("big.bin"))).as("first offset where the copy differs from the source")
                .isEqualTo(-1L);

        vault.mount.unmount(false); // throws MountBusyException if anything still holds the mount
        assertThat(vault.mount.isMounted()).isFalse();
        assertThat(MountTable.isMounted(mnt)).as("gone from the mount table").isFalse();
    }
}
