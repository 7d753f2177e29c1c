package dev.coffer.benchmarks;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;

/** Shared set-up of the benchmarks: seeded data, a scratch folder (RAM-backed when possible), cheap test vaults. */
final class BenchSupport {
    /** Every benchmark derives its data from this seed, so runs are repeatable. */
    static final long SEED = 0xC0FFEEL;
    /** The lowest scrypt cost a vault accepts: for vaults whose unlock is not what is measured. */
    static final int CHEAP_SCRYPT_N = 1 << 14;
    static final String PASSPHRASE = "correct horse battery staple";

    private BenchSupport() {}

    static byte[] seeded(int length, long salt) {
        byte[] b = new byte[length];
        new Random(SEED ^ salt).nextBytes(b);
        return b;
    }

    /**
     * A new scratch folder under {@code -Dcoffer.bench.dir}, else {@code /dev/shm} (tmpfs, so the
     * disk does not dominate), else the JVM's temp folder.
     */
    static Path scratch(String prefix) throws IOException {
        String configured = System.getProperty("coffer.bench.dir");
        Path base;
        if (configured != null && !configured.isBlank()) {
            base = Paths.get(configured);
        } else if (Files.isDirectory(Paths.get("/dev/shm")) && Files.isWritable(Paths.get("/dev/shm"))) {
            base = Paths.get("/dev/shm");
        } else {
            base = Paths.get(System.getProperty("java.io.tmpdir"));
        }
        return Files.createTempDirectory(base, "coffer-bench-" + prefix + "-");
    }

    /** A new vault in {@code dir} with the cheapest scrypt cost, opened as a file system. */
    static CofferFileSystem cheapVault(Path dir, CipherCombo combo) throws IOException {
        return CofferFileSystems.create(dir, PASSPHRASE.toCharArray(), new VaultCreationOptions(combo, CHEAP_SCRYPT_N, 220));
    }

    /** Where a benchmark's files go: the root of a vault, or a plain folder (then {@code vault} is null). */
    record Folder(Path path, CofferFileSystem vault) {}

    /**
     * For a target named {@code PLAIN...}, a new plain folder in {@code scratch}; else a new cheap vault
     * of that content mode ({@link CipherCombo} name) in it.
     */
    static Folder folder(Path scratch, String target) throws IOException {
        if (target.startsWith("PLAIN")) {
            return new Folder(Files.createDirectory(scratch.resolve("plain")), null);
        }
        CofferFileSystem vault = cheapVault(scratch.resolve("vault"), CipherCombo.valueOf(target));
        return new Folder(vault.getPath("/"), vault);
    }

    static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Heap used after a full collection, in MiB: a coarse check that a run does not leak. */
    static double usedHeapMiB() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return (rt.totalMemory() - rt.freeMemory()) / (1024.0 * 1024.0);
    }
}
