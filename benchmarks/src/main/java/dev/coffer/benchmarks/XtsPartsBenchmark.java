package dev.coffer.benchmarks;

import dev.coffer.core.crypto.AesXts;
import dev.coffer.core.crypto.Bytes;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Profiling aid, not a target: the parts {@code AesXts.crypt} spends a 4 KiB unit on, each alone.
 * {@code ecb}: the JDK's AES/ECB (the AES work itself); {@code coreXor}: one XOR pass of
 * {@link Bytes#xor} (XTS makes two per unit); {@code byteLoopXor}: the same XOR as a plain byte loop,
 * which C2 vectorises; {@code fillMasks}: the tweak doubling of 256 blocks as {@code AesXts} does it;
 * {@code coreXtsEncrypt} (and decrypt): the whole unit with the core's {@link AesXts}. (A prototype
 * of the byte-loop XOR lived here until core adopted it.) Average time per 4 KiB.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class XtsPartsBenchmark {
    private static final int LEN = 4096;

    private Cipher ecb;
    private byte[] a;
    private byte[] b;
    private byte[] out;
    private long lo;
    private long hi;
    private AesXts coreXts;
    private byte[] tweak;

    @Setup
    public void setUp() throws GeneralSecurityException {
        ecb = Cipher.getInstance("AES/ECB/NoPadding");
        ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(BenchSupport.seeded(32, 40), "AES"));
        a = BenchSupport.seeded(LEN, 41);
        b = BenchSupport.seeded(LEN, 42);
        out = new byte[LEN];
        lo = 0x0123456789abcdefL;
        hi = 0xfedcba9876543210L;
        byte[] key = BenchSupport.seeded(AesXts.KEY_LENGTH, 43);
        coreXts = new AesXts(key);
        tweak = BenchSupport.seeded(16, 44);
    }

    @Benchmark
    public byte[] coreXtsEncrypt() {
        coreXts.encrypt(tweak, 0, a, 0, out, 0, LEN);
        return out;
    }

    @Benchmark
    public byte[] coreXtsDecrypt() {
        coreXts.decrypt(tweak, 0, a, 0, out, 0, LEN);
        return out;
    }

    @Benchmark
    public byte[] ecb() throws ShortBufferException {
        ecb.update(a, 0, LEN, out, 0);
        return out;
    }

    @Benchmark
    public byte[] coreXor() {
        Bytes.xor(a, 0, b, 0, out, 0, LEN);
        return out;
    }

    @Benchmark
    public byte[] byteLoopXor() {
        byte[] x = a;
        byte[] y = b;
        byte[] o = out;
        for (int i = 0; i < LEN; i++) {
            o[i] = (byte) (x[i] ^ y[i]);
        }
        return o;
    }

    /** Same loop as AesXts.fillMasks (little-endian longs, GF(2^128) doubling). */
    @Benchmark
    public byte[] fillMasks() {
        long l = lo;
        long h = hi;
        byte[] m = out;
        for (int j = 0; j < LEN / 16; j++) {
            putLongLE(m, j * 16, l);
            putLongLE(m, j * 16 + 8, h);
            long carry = h >> 63;
            h = (h << 1) | (l >>> 63);
            l = (l << 1) ^ (carry & 0x87L);
        }
        return m;
    }

    private static final java.lang.invoke.VarHandle LONG_LE =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    private static void putLongLE(byte[] m, int off, long v) {
        LONG_LE.set(m, off, v);
    }
}
