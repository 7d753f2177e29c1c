package dev.coffer.core.health;

import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.UnlockedVaultCopies;
import dev.coffer.core.vault.VaultAccess;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.stream.Stream;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Map;
import java.util.List;
import java.util.Random;

/**
 * A small vault made through the file system for health tests, and the ciphertext locations of
 * its cleartext paths (found through the core's own {@code PathMapper}), so that tests can damage
 * exactly one thing.
 */
final class HealthFixture {
    static final String PASSPHRASE = "health check";

    final Path vault;
    private final CipherCombo combo;

    private HealthFixture(Path vault, CipherCombo combo) {
        this.vault = vault;
        this.combo = combo;
    }

    /** The vault each content mode's {@link #create} copies, made once per JVM (see there). */
    private static final Map<CipherCombo, Path> TEMPLATES = new EnumMap<>(CipherCombo.class);
    /** Each template unlocked once: the keys of every copy, for {@link #entry} and the other look-ups. */
    private static final Map<CipherCombo, UnlockedVault> TEMPLATE_KEYS = new EnumMap<>(CipherCombo.class);

    /**
     * A vault holding a small tree: files of several sizes, a long name, a symlink, nested and empty
     * folders. A byte-for-byte copy of one made once per content mode and JVM: every test damages its
     * own copy, and making the vault (scrypt and a dozen encrypted writes) cost more than most tests.
     * The copy's files are new, so their times are now, as those of a vault just made.
     */
    static HealthFixture create(Path dir, CipherCombo combo) throws IOException {
        Path vault = dir.resolve("vault");
        Files.createDirectories(dir);
        copyTree(template(combo), vault);
        return new HealthFixture(vault, combo);
    }

    private static synchronized Path template(CipherCombo combo) throws IOException {
        Path template = TEMPLATES.get(combo);
        if (template == null) {
            Path dir = Files.createTempDirectory("coffer-health-template-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(dir)));
            template = make(dir, combo);
            UnlockedVault keys = VaultAccess.unlock(template, PASSPHRASE.toCharArray());
            Runtime.getRuntime().addShutdownHook(new Thread(keys::close));
            TEMPLATE_KEYS.put(combo, keys);
            TEMPLATES.put(combo, template);
        }
        return template;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Files.copy(p, to.resolve(from.relativize(p).toString()), LinkOption.NOFOLLOW_LINKS);
            }
        }
    }

    private static void deleteQuietly(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a leftover in the temp folder; nothing to do during the exit
        }
    }

    /** Makes the vault of {@link #create} in {@code dir}. */
    private static Path make(Path dir, CipherCombo combo) throws IOException {
        Path vault = dir.resolve("vault");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, PASSPHRASE.toCharArray(), new VaultCreationOptions(combo, 1 << 14, 220))) {
            Path root = fs.getPath("/");
            Files.createDirectories(root.resolve("docs/deep/deeper"));
            Files.createDirectories(root.resolve("empty"));
            Files.write(root.resolve("docs/report.txt"), content(1, 10_000));
            Files.write(root.resolve("docs/deep/deeper/bottom.bin"), content(2, 3 * 4096 + 7));
            Files.write(root.resolve("docs/deep/tiny.txt"), content(3, 5));
            Files.write(root.resolve("big.bin"), content(4, 300_000));
            Files.write(root.resolve("empty.txt"), new byte[0]);
            Files.write(root.resolve("docs/" + "long name ".repeat(20) + ".txt"), content(5, 100));
            Files.createDirectories(root.resolve("docs/" + "long folder ".repeat(15)));
            Files.write(root.resolve("docs/" + "long folder ".repeat(15) + "/inside.txt"), content(6, 50));
            Files.createSymbolicLink(root.resolve("link"), fs.getPath("docs/report.txt"));
        }
        return vault;
    }

    static byte[] content(long seed, int size) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    HealthReport check() throws IOException {
        try (UnlockedVault u = unlock(); VaultHealth health = VaultHealth.of(u)) {
            return health.check();
        }
    }

    /** Repairs what a check finds; fails on a repair that fails; returns the check after it. */
    HealthReport repairAndCheck() throws IOException {
        try (UnlockedVault u = unlock(); VaultHealth health = VaultHealth.of(u)) {
            VaultHealth.RepairOutcome outcome = health.repair(health.check());
            if (!outcome.failures().isEmpty()) {
                throw new AssertionError("repairs failed: " + outcome.failures());
            }
            return health.check();
        }
    }

    CofferFileSystem open() throws IOException {
        return CofferFileSystems.open(vault, PASSPHRASE.toCharArray(), false);
    }

    /** The on-disk entry of the cleartext {@code path} ({@code <encName>.c9r} or {@code <s>.c9s}). */
    Path entry(String path) throws IOException {
        List<String> parts = Arrays.asList(path.substring(1).split("/"));
        try (UnlockedVault u = keysForLookUps(); VaultKeys keys = new VaultKeys(u)) {
            CiphertextDirectory parent = keys.mapper.directory(parts.subList(0, parts.size() - 1));
            return keys.mapper.slot(parent, parts.get(parts.size() - 1)).entryPath();
        }
    }

    /** The on-disk name {@code cleartextName} (taken as it is, not normalised) gets in the folder {@code folderPath}. */
    String encryptedName(String folderPath, String cleartextName) throws IOException {
        List<String> parts = folderPath.equals("/") ? List.of() : Arrays.asList(folderPath.substring(1).split("/"));
        try (UnlockedVault u = keysForLookUps(); VaultKeys keys = new VaultKeys(u)) {
            String dirId = keys.mapper.directory(parts).dirId();
            return keys.longNames.onDiskName(keys.names.encrypt(cleartextName, dirId));
        }
    }

    /** The storage folder of the cleartext folder {@code path}. */
    Path storage(String path) throws IOException {
        List<String> parts = path.equals("/") ? List.of() : Arrays.asList(path.substring(1).split("/"));
        try (UnlockedVault u = keysForLookUps(); VaultKeys keys = new VaultKeys(u)) {
            return keys.mapper.directory(parts).storage();
        }
    }

    /** Makes everything in the vault two days old: past the 24 hours in which a sync may still be delivering it. */
    HealthFixture aged() throws IOException {
        age(vault);
        return this;
    }

    /** Sets the modification time of {@code root} and everything below it to two days ago. */
    static void age(Path root) throws IOException {
        FileTime old = FileTime.from(Instant.now().minus(2, ChronoUnit.DAYS));
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Files.setLastModifiedTime(p, old);
            }
        }
    }

    String relative(Path p) {
        return vault.relativize(p).toString();
    }

    private UnlockedVault unlock() throws IOException {
        return VaultAccess.unlock(vault, PASSPHRASE.toCharArray());
    }

    /**
     * This copy's keys for finding where things lie, without scrypt (a third of this package's
     * unlocks were these look-ups); the check and the repair still unlock through {@link VaultAccess}.
     */
    private UnlockedVault keysForLookUps() {
        synchronized (HealthFixture.class) {
            return UnlockedVaultCopies.at(TEMPLATE_KEYS.get(combo), vault);
        }
    }
}
