package dev.coffer.benchmarks;

import dev.coffer.core.nio.CofferFileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
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
 * A cleartext {@link FileChannel} of a vault (both content modes) against a plain FileChannel in the
 * same scratch folder (heap buffers, like the vault's callers; and direct buffers, the I/O floor) ({@code /dev/shm} when present, or {@code -Dcoffer.bench.dir}):
 * <ul>
 *   <li>{@code seqWrite}: a new 256 MiB file, written front to back in 128 KiB calls (single shot: s/op;
 *       MiB/s = 256 / score).</li>
 *   <li>{@code seqRead}: the same file read back front to back in 128 KiB calls (single shot).</li>
 *   <li>{@code randomRead4k}, {@code randomWrite4k}: 4 KiB at a seeded random 4 KiB-aligned offset of a
 *       256 MiB file, one call per op (ops/s; MiB/s = score / 256).</li>
 * </ul>
 * Each trial prints the heap used after a full GC at its start and end (run with {@code -prof gc}
 * for allocation rates).
 */
// Two forks: the JIT compiles AesXts differently from one JVM to the next.
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class FileChannelBenchmark {
    static final int CALL = 128 * 1024;
    static final long FILE_SIZE = 256L * 1024 * 1024;
    static final int SMALL = 4096;

    /** The folder, its files and buffers of one trial. */
    @State(Scope.Thread)
    public static class Target {
        /**
         * SIV_XTSHMAC and SIV_XTS: a vault of that content mode; PLAIN: a plain folder; PLAIN_DIRECT: a
         * plain folder written from direct buffers (no JDK copy into a temporary direct buffer: the
         * floor of the I/O cost).
         */
        @Param({"SIV_XTSHMAC", "SIV_XTS", "PLAIN", "PLAIN_DIRECT"})
        public String target;

        Path scratch;
        CofferFileSystem vault;
        Path written;
        Path existing;
        ByteBuffer callBuffer;
        ByteBuffer smallBuffer;
        FileChannel randomChannel;
        SplittableRandom random;
        double heapAtStart;

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            scratch = BenchSupport.scratch("channel");
            BenchSupport.Folder where = BenchSupport.folder(scratch, target);
            vault = where.vault();
            Path folder = where.path();
            written = folder.resolve("written.bin");
            existing = folder.resolve("existing.bin");
            callBuffer = buffer(BenchSupport.seeded(CALL, 20));
            smallBuffer = buffer(BenchSupport.seeded(SMALL, 21));
            writeWhole(existing, callBuffer);
            randomChannel = FileChannel.open(existing, StandardOpenOption.READ, StandardOpenOption.WRITE);
            random = new SplittableRandom(BenchSupport.SEED);
            heapAtStart = BenchSupport.usedHeapMiB();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            randomChannel.close();
            double heapAtEnd = BenchSupport.usedHeapMiB();
            System.out.printf("%n[heap after full GC: %.1f MiB at trial start, %.1f MiB at trial end]%n", heapAtStart, heapAtEnd);
            if (vault != null) {
                vault.close();
            }
            BenchSupport.deleteTree(scratch);
        }

        private ByteBuffer buffer(byte[] content) {
            if (target.equals("PLAIN_DIRECT")) {
                return ByteBuffer.allocateDirect(content.length).put(content).clear();
            }
            return ByteBuffer.wrap(content);
        }

        private long randomOffset() {
            return random.nextLong(FILE_SIZE / SMALL) * SMALL;
        }
    }

    /**
     * The target of {@code seqWrite}: deletes the file the previous call made, before each call and
     * outside the measurement. (A subclass, not a state depending on {@link Target}: JMH 1.37 would
     * give such a dependency its own Target instance, with its own folder.)
     */
    @State(Scope.Thread)
    public static class WriteTarget extends Target {
        @Setup(Level.Invocation)
        public void deleteWritten() throws IOException {
            Files.deleteIfExists(written);
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 3)
    @Measurement(iterations = 6)
    public long seqWrite(WriteTarget t) throws IOException {
        return writeWhole(t.written, t.callBuffer);
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 3)
    @Measurement(iterations = 6)
    public long seqRead(Target t) throws IOException {
        ByteBuffer callBuffer = t.callBuffer;
        long total = 0;
        long check = 0;
        try (FileChannel ch = FileChannel.open(t.existing, StandardOpenOption.READ)) {
            while (true) {
                callBuffer.clear();
                int n = ch.read(callBuffer);
                if (n < 0) {
                    break;
                }
                total += n;
                check += callBuffer.get(0);
            }
        }
        if (total != FILE_SIZE) {
            throw new IllegalStateException("read " + total + " bytes");
        }
        return check;
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Warmup(iterations = 2, time = 1)
    @Measurement(iterations = 3, time = 1)
    public int randomRead4k(Target t) throws IOException {
        t.smallBuffer.clear();
        return t.randomChannel.read(t.smallBuffer, t.randomOffset());
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Warmup(iterations = 2, time = 1)
    @Measurement(iterations = 3, time = 1)
    public int randomWrite4k(Target t) throws IOException {
        t.smallBuffer.clear();
        return t.randomChannel.write(t.smallBuffer, t.randomOffset());
    }

    static long writeWhole(Path file, ByteBuffer callBuffer) throws IOException {
        long total = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long pos = 0; pos < FILE_SIZE; pos += CALL) {
                callBuffer.clear();
                total += ch.write(callBuffer);
            }
        }
        return total;
    }
}
