package dev.coffer.benchmarks;

import dev.coffer.core.crypto.AesXts;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * {@link AesXts} alone: one data unit per operation, encrypted or decrypted in place of a separate
 * output buffer, like {@code openssl speed -evp aes-256-xts -bytes N}. Score: units per second;
 * bytes per second = score x unitSize ({@code summarize.py} converts).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// Three forks: the JIT compiles AesXts differently from one JVM to the next (up to 1.4x apart).
@Fork(value = 3, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class XtsBenchmark {
    @Param({"512", "4096", "16384", "65536"})
    public int unitSize;

    private AesXts xts;
    private byte[] tweak;
    private byte[] plain;
    private byte[] cipher;
    private byte[] out;

    @Setup
    public void setUp() {
        xts = new AesXts(BenchSupport.seeded(AesXts.KEY_LENGTH, 1));
        tweak = BenchSupport.seeded(16, 2);
        plain = BenchSupport.seeded(unitSize, 3);
        cipher = new byte[unitSize];
        out = new byte[unitSize];
        xts.encrypt(tweak, 0, plain, 0, cipher, 0, unitSize);
        // The scratch buffers grow on first use; do it before measuring.
        xts.decrypt(tweak, 0, cipher, 0, out, 0, unitSize);
    }

    @TearDown
    public void tearDown() {
        xts.destroy();
    }

    @Benchmark
    public byte[] encrypt() {
        xts.encrypt(tweak, 0, plain, 0, out, 0, unitSize);
        return out;
    }

    @Benchmark
    public byte[] decrypt() {
        xts.decrypt(tweak, 0, cipher, 0, out, 0, unitSize);
        return out;
    }
}
