package dev.coffer.benchmarks;

import dev.coffer.core.nio.CofferFileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-file cost of reading many small files (what {@code md5sum} of a source tree does through a
 * mount): each op opens the next of {@link #FILES} files of 12 KiB (cycling), reads all of it in one
 * call, and closes it. And of writing them ({@code tar xf}): each op creates a new file, writes 12 KiB
 * in tar's 10 KiB records and closes it. Vault (both content modes) against a plain folder in the
 * same scratch place. Score: files/s; the vault's cost per file is 1 / score minus the plain one's.
 */
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class SmallFilesBenchmark {
    static final int FILES = 1_000;
    static final int SIZE = 12 * 1024;
    /** tar's default record: 20 blocks of 512 bytes. */
    static final int RECORD = 10 * 1024;

    @Param({"SIV_XTSHMAC", "SIV_XTS", "PLAIN"})
    public String target;

    private Path scratch;
    private CofferFileSystem vault;
    private Path[] files;
    private ByteBuffer buffer;
    private int next;
    private Path folder;
    private byte[] content;
    /** The folder new files go to: a fresh one per iteration, removed after it (not timed). */
    private Path written;
    private int created;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        scratch = BenchSupport.scratch("small");
        BenchSupport.Folder where = BenchSupport.folder(scratch, target);
        vault = where.vault();
        folder = where.path();
        content = BenchSupport.seeded(SIZE, 30);
        files = new Path[FILES];
        for (int i = 0; i < FILES; i++) {
            files[i] = Files.write(folder.resolve("file-" + i + ".c"), content);
        }
        // One byte more than the file: a read returns the whole file, as md5sum's first read does.
        buffer = ByteBuffer.allocate(SIZE + 1);
    }

    @Setup(Level.Iteration)
    public void newFolder() throws IOException {
        written = Files.createDirectory(folder.resolve("written-" + System.nanoTime()));
        created = 0;
    }

    @TearDown(Level.Iteration)
    public void removeFolder() {
        BenchSupport.deleteTree(written);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (vault != null) {
            vault.close();
        }
        BenchSupport.deleteTree(scratch);
    }

    @Benchmark
    public int openReadClose() throws IOException {
        Path file = files[next];
        next = (next + 1) % FILES;
        buffer.clear();
        int n;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            n = ch.read(buffer);
        }
        if (n != SIZE) {
            throw new IllegalStateException("read " + n + " bytes of " + SIZE);
        }
        return buffer.get(n - 1);
    }

    /** A new file of 12 KiB written as {@code tar} writes it (10 KiB records), then closed. */
    @Benchmark
    public long createWriteClose() throws IOException {
        try (FileChannel ch = createNext()) {
            ch.write(ByteBuffer.wrap(content, 0, RECORD));
            ch.write(ByteBuffer.wrap(content, RECORD, SIZE - RECORD));
            return ch.size();
        }
    }

    /**
     * The same file written in one call: against {@link #createWriteClose}, what the second record
     * costs (the partial last unit read back, decrypted, encrypted again and written again).
     */
    @Benchmark
    public long createWriteOnceClose() throws IOException {
        try (FileChannel ch = createNext()) {
            ch.write(ByteBuffer.wrap(content));
            return ch.size();
        }
    }

    /** The next new file of this iteration's folder, open for writing. */
    private FileChannel createNext() throws IOException {
        Path file = written.resolve("new-" + created++ + ".c");
        return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }
}
