package dev.coffer.benchmarks;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.vault.CipherCombo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * What a file manager does when it opens a folder: {@code Files.list} and then
 * {@code readAttributes(BasicFileAttributes)} of every entry, for a vault folder (SIV_XTSHMAC) and
 * a plain folder holding {@code count} 1-byte files. The folder is made once per trial (outside
 * the measurement). Single shot: ms per whole listing.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3)
@Measurement(iterations = 5)
public class ListingBenchmark {
    /** A vault whose folder {@code /big} holds {@code count} 1-byte files. */
    @State(Scope.Benchmark)
    public static class VaultFolder {
        @Param({"1000", "10000", "50000", "100000"})
        public int count;

        Path scratch;
        CofferFileSystem vault;
        Path dir;

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            scratch = BenchSupport.scratch("list-vault");
            vault = BenchSupport.cheapVault(scratch.resolve("vault"), CipherCombo.SIV_XTSHMAC);
            dir = Files.createDirectory(vault.getPath("/big"));
            fill(dir, count);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            vault.close();
            BenchSupport.deleteTree(scratch);
        }
    }

    /** A plain folder with the same {@code count} 1-byte files. */
    @State(Scope.Benchmark)
    public static class PlainFolder {
        @Param({"1000", "10000", "50000", "100000"})
        public int count;

        Path scratch;
        Path dir;

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            scratch = BenchSupport.scratch("list-plain");
            dir = Files.createDirectory(scratch.resolve("big"));
            fill(dir, count);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            BenchSupport.deleteTree(scratch);
        }
    }

    static void fill(Path dir, int count) throws IOException {
        byte[] one = {42};
        for (int i = 0; i < count; i++) {
            Files.write(dir.resolve(String.format("document-%06d.txt", i)), one);
        }
    }

    @Benchmark
    public long listVault(VaultFolder f) throws IOException {
        return listWithAttributes(f.dir, f.count);
    }

    @Benchmark
    public long listPlain(PlainFolder f) throws IOException {
        return listWithAttributes(f.dir, f.count);
    }

    static long listWithAttributes(Path dir, int expected) throws IOException {
        long[] seen = new long[2];
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> {
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    seen[0]++;
                    seen[1] += a.size() + a.lastModifiedTime().toMillis();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        if (seen[0] != expected) {
            throw new IllegalStateException("listed " + seen[0] + " of " + expected);
        }
        return seen[1];
    }
}
