package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.testing.TmpfsMount;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk under the ciphertext, for real: the vault lives on an 8 MiB tmpfs and is filled
 * through its FUSE mount. The writer gets ENOSPC ({@code dd} says "No space left on device", a Java
 * write throws), the file it was writing keeps what was written before the failing write, every
 * other file stays intact, the mount keeps working once space is freed, and the vault reopens with
 * every file readable.
 */
class DiskFullMountTest {
    private static final int OTHER_FILES = 4;
    /** What dd does not get before the store is full: more than the store has left (64 KiB) and than a queue holds. */
    private static final int HELD_BACK = 16 << 20;

    @TempDir
    Path tmp;

    @Test
    @Timeout(180)
    void theWriterGetsEnospcAndNothingElseIsHurt() throws Exception {
        byte[] source = randomBytes(16 << 20, 8);
        Path sourceFile = Files.write(tmp.resolve("source.bin"), source);
        try (TmpfsMount tmpfs = TmpfsMount.mount(tmp.resolve("small"), 8)) {
            onAVaultIn(tmpfs, source, mnt -> {
                Shell.Result dd = Shell.run(tmp, "dd", "if=" + sourceFile, "of=" + mnt.resolve("filler.bin"), "bs=64k", "conv=fsync");
                assertThat(dd.exit()).as(dd.output()).isNotZero();
                assertThat(dd.output()).contains("No space left on device");
                assertIsAPrefix(mnt.resolve("filler.bin"), source, 1);

                try (FileChannel ch = FileChannel.open(mnt.resolve("java.bin"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    assertThatThrownBy(() -> {
                        for (int i = 0; i < 1000; i++) {
                            ch.write(ByteBuffer.wrap(source, 0, 1 << 16));
                        }
                        ch.force(true);
                    }).isInstanceOf(IOException.class).hasMessageContaining("No space left on device");
                }
                assertDocsIntact(mnt);
                Files.delete(mnt.resolve("filler.bin"));
                Files.delete(mnt.resolve("java.bin"));
            });
        }
    }

    /**
     * Another program (a sync client downloading) fills the store while a streaming write runs through
     * the mount. With more than {@code OpenFile.QUEUE_HEADROOM} (256 MiB) free when the write begins,
     * its appends are queued and acknowledged before they are encrypted, so the failure may come in a
     * queued append (reported at the writer's next request or its fsync) or, if the store was asked
     * again in between, in the writer's own request: either way {@code dd} hears ENOSPC, the file holds
     * a prefix of what was written with nothing after it, and every other file stays intact. (In three
     * runs with dd's counts printed, the file held one 128 KiB request less than dd had been told was
     * written: a queued append had failed, been undone and reported at the next request and at fsync.)
     *
     * <p>dd reads the source from the test, whose last {@link #HELD_BACK} bytes it gets only once the
     * store is full. Filling the store takes 0.3-0.9 s, in which dd wrote 20 to 80 of its 96 MiB (on a
     * loaded machine), so a test thread held up for a moment more let dd write them all and succeed
     * before the store was full (a 1.5 s pause before the fill did so in 2 of 3 runs).
     */
    @Test
    @Timeout(180)
    void aStoreFilledByAnotherProgramDuringAStreamingWriteCostsOnlyTheUnwrittenTail() throws Exception {
        byte[] source = randomBytes(96 << 20, 9);
        try (TmpfsMount tmpfs = TmpfsMount.mount(tmp.resolve("roomy"), 320)) {
            onAVaultIn(tmpfs, source, mnt -> {
                Path stream = mnt.resolve("stream.bin");
                Process dd = Shell.start(tmp, "dd", "of=" + stream, "bs=128k", "iflag=fullblock", "conv=fsync");
                CountDownLatch storeFull = new CountDownLatch(1);
                ExecutorService io = Executors.newFixedThreadPool(2);
                try {
                    Future<?> fed = io.submit(() -> feed(dd, source, storeFull));
                    Future<String> output = io.submit(() -> new String(dd.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                    // More than the 8 MiB checked below: the size counts appends acknowledged and still
                    // queued (up to 17 of 128 KiB), which a store that fills up before they are written cuts off.
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (!(Files.exists(stream) && Files.size(stream) >= 12 << 20) && dd.isAlive() && System.nanoTime() < deadline) {
                        Thread.sleep(1);
                    }
                    assertThat(dd.isAlive()).as("dd still writing when the store fills up").isTrue();
                    Path ballast = tmpfs.leaveFree("downloaded-by-someone-else.bin", 64 << 10);
                    storeFull.countDown();

                    assertThat(dd.waitFor(120, TimeUnit.SECONDS)).as("dd ended").isTrue();
                    String out = output.get(10, TimeUnit.SECONDS);
                    fed.get(10, TimeUnit.SECONDS);
                    assertThat(dd.exitValue()).as(out).isNotZero();
                    assertThat(out).contains("No space left on device");
                    assertIsAPrefix(stream, source, 8 << 20);
                    assertDocsIntact(mnt);
                    Files.delete(ballast);
                } finally {
                    storeFull.countDown();
                    dd.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // its open file would keep the mount busy
                    io.shutdownNow();
                }
            });
        }
    }

    /**
     * Writes {@code source} to dd's stdin, all but the last {@link #HELD_BACK} bytes at once and those
     * once {@code storeFull} opens; dd ending on ENOSPC before it took everything breaks the pipe,
     * which is no failure here (dd's own exit and output are checked).
     */
    private static Void feed(Process dd, byte[] source, CountDownLatch storeFull) throws IOException, InterruptedException {
        try (OutputStream stdin = dd.getOutputStream()) {
            stdin.write(source, 0, source.length - HELD_BACK);
            stdin.flush();
            storeFull.await();
            stdin.write(source, source.length - HELD_BACK, HELD_BACK);
        } catch (IOException e) {
            if (!dd.waitFor(60, TimeUnit.SECONDS)) {
                throw e; // dd still running: the pipe broke for another reason
            }
        }
        return null;
    }

    /** What a test does on the mount between the other files' writing and the checks at the end. */
    private interface Steps {
        void run(Path mnt) throws Exception;
    }

    private Map<String, String> docsBefore;

    /**
     * Creates a vault in {@code tmpfs}, mounts it, writes the other files, runs {@code steps}; then, once
     * room is made, writes one more file and reads it back, and reopens the vault: it holds exactly
     * what the mount showed at the end.
     */
    private void onAVaultIn(TmpfsMount tmpfs, byte[] source, Steps steps) throws Exception {
        Path vaultDir = tmpfs.dir().resolve("vault");
        Map<String, String> atTheEnd;
        Mounts mounts = new Mounts();
        try (CofferFileSystem fs = CofferFileSystems.create(vaultDir, "test passphrase".toCharArray(), VaultMountTest.FAST)) {
            try {
                Path mnt = mounts.mount(fs.getPath("/"), tmp.resolve("mnt")).mountPoint();
                Files.createDirectory(mnt.resolve("docs"));
                for (int i = 0; i < OTHER_FILES; i++) {
                    Files.write(mnt.resolve("docs/file" + i + ".bin"), Arrays.copyOfRange(source, i * 300_000, (i + 1) * 300_000 + i));
                }
                docsBefore = ConcurrentFioTest.digests(mnt.resolve("docs"));
                steps.run(mnt);
                Files.write(mnt.resolve("after.bin"), Arrays.copyOf(source, 1 << 20));
                assertThat(Files.readAllBytes(mnt.resolve("after.bin"))).isEqualTo(Arrays.copyOf(source, 1 << 20));
                assertDocsIntact(mnt);
                atTheEnd = ConcurrentFioTest.digests(mnt);
            } finally {
                mounts.close();
            }
        }
        try (CofferFileSystem fs = CofferFileSystems.open(vaultDir, "test passphrase".toCharArray(), true)) {
            assertThat(ConcurrentFioTest.digests(fs.getPath("/"))).isEqualTo(atTheEnd).containsKey("after.bin");
        }
    }

    private void assertDocsIntact(Path mnt) throws IOException {
        assertThat(ConcurrentFioTest.digests(mnt.resolve("docs"))).hasSize(OTHER_FILES).isEqualTo(docsBefore);
    }

    private static byte[] randomBytes(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** The file holds at least {@code min} bytes, and they are the first bytes of {@code source}. */
    private static void assertIsAPrefix(Path file, byte[] source, int min) throws IOException {
        byte[] kept = Files.readAllBytes(file);
        assertThat(kept.length).as("what was written before the store filled up").isGreaterThanOrEqualTo(min);
        assertThat(Arrays.equals(kept, Arrays.copyOf(source, kept.length))).as("a prefix of the source, nothing after it").isTrue();
    }
}
