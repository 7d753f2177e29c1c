package dev.coffer.benchmarks;

import dev.coffer.core.content.SectorLayout;
import dev.coffer.core.content.UnitCryptor;
import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.vault.CipherCombo;
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
 * "The content cryptor alone": {@link UnitCryptor} on one full 4 KiB data unit per operation, no
 * I/O. SIV_XTSHMAC = nonce + XTS + HMAC-SHA256 tag (and tag check on decrypt); SIV_XTS = XTS with
 * the unit index as tweak. The unit index advances like a sequential file, and stored units go to
 * (come from) a 128 KiB batch buffer, like the vault's open file uses. Score: units per second;
 * MiB/s = score / 256. This is the ceiling {@link FileChannelBenchmark} is compared against.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// Three forks: the JIT compiles AesXts differently from one JVM to the next (up to 1.4x apart).
@Fork(value = 3, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class UnitCryptorBenchmark {
    private static final int UNIT = SectorLayout.SECTOR;
    /**
     * Stored units cycled through: 32, one 128 KiB batch, what the vault's open file encrypts into or
     * decrypts from per call (its buffer stays in the L2 cache; a larger one would not, on this machine).
     */
    private static final int STORED_UNITS = 32;

    @Param({"SIV_XTSHMAC", "SIV_XTS"})
    public CipherCombo mode;

    private UnitCryptor cryptor;
    private int overhead;
    private byte[] plain;
    private byte[] batch;
    private byte[] storedAll;
    private byte[] out;
    private long index;

    @Setup
    public void setUp() {
        boolean authenticated = mode == CipherCombo.SIV_XTSHMAC;
        // Nonces come from the per-file DRBG the vault uses: their cost is part of the mode.
        cryptor = new UnitCryptor(BenchSupport.seeded(32, 10), authenticated, UnitCryptor.newNonceSource());
        overhead = cryptor.overhead();
        plain = BenchSupport.seeded(UNIT, 11);
        batch = new byte[STORED_UNITS * (UNIT + overhead)];
        out = new byte[UNIT];
        storedAll = new byte[STORED_UNITS * (UNIT + overhead)];
        for (int i = 0; i < STORED_UNITS; i++) {
            cryptor.encrypt(i, false, plain, 0, UNIT, storedAll, i * (UNIT + overhead));
        }
    }

    @TearDown
    public void tearDown() {
        cryptor.destroy();
    }

    @Benchmark
    public byte[] encrypt() {
        int i = (int) (index % STORED_UNITS);
        cryptor.encrypt(index++, false, plain, 0, UNIT, batch, i * (UNIT + overhead));
        return batch;
    }

    @Benchmark
    public byte[] decrypt() throws AuthenticationFailedException {
        int i = (int) (index++ % STORED_UNITS);
        cryptor.decrypt(i, false, storedAll, i * (UNIT + overhead), UNIT + overhead, out, 0);
        return out;
    }
}
