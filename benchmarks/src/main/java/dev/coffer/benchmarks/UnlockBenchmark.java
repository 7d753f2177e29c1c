package dev.coffer.benchmarks;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Unlocking a vault made with {@link VaultCreationOptions#defaults()} (scrypt N = 2^17, r = 8,
 * p = 1): {@code unlock} is {@link VaultAccess#unlock} alone (read root files, scrypt, unwrap,
 * verify the configuration); {@code unlockAndOpen} also opens the vault as a file system. Single
 * shot, each call a full unlock: ms per unlock.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3)
@Measurement(iterations = 10)
public class UnlockBenchmark {
    private Path scratch;
    private Path vaultDir;

    @Setup
    public void setUp() throws IOException {
        scratch = BenchSupport.scratch("unlock");
        vaultDir = scratch.resolve("vault");
        CofferFileSystems.create(vaultDir, BenchSupport.PASSPHRASE.toCharArray(), VaultCreationOptions.defaults()).close();
    }

    @TearDown
    public void tearDown() {
        BenchSupport.deleteTree(scratch);
    }

    @Benchmark
    public boolean unlock() throws IOException {
        try (UnlockedVault v = VaultAccess.unlock(vaultDir, BenchSupport.PASSPHRASE.toCharArray())) {
            return v.isDestroyed();
        }
    }

    @Benchmark
    public boolean unlockAndOpen() throws IOException {
        try (CofferFileSystem fs = CofferFileSystems.open(vaultDir, BenchSupport.PASSPHRASE.toCharArray(), true)) {
            return fs.isOpen();
        }
    }
}
