package dev.coffer.core.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A directory ID used twice whose shared folder holds a damaged file. The repair still separates the
 * two folders (while they share one, a file deleted through one is gone from both): the damaged file
 * is copied byte for byte, as the repair did before copies were encrypted again, and the outcome's
 * notes name it. A copy that fails for another reason removes the storage folders it made.
 */
class DuplicateDirectoryDamagedSourceTest {
    private static final String DAMAGED = "deep/tiny.txt";
    /** Four units. */
    private static final String MULTI_UNIT = "deep/deeper/bottom.bin";
    /** A stored unit of SIV_XTSHMAC: nonce, 4 KiB, tag. */
    private static final int UNIT = 4096 + 32;
    /** A content file's header: nonce and encrypted fileSecret (spec 5.1). */
    private static final int HEADER = 48;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(CipherCombo.class)
    void aFileWithADamagedHeaderIsCopiedAsItIs(CipherCombo combo) throws IOException {
        HealthFixture v = withDocsCopied(combo);
        overwrite(v.entry("/docs/" + DAMAGED), 20, new byte[] {0x55, 0x55, 0x55, 0x55});
        theDamagedFileIsCopiedAsItIs(v, DAMAGED, "file header failed authentication");
    }

    @ParameterizedTest
    @EnumSource(CipherCombo.class)
    void aFileOfAnImpossibleLengthIsCopiedAsItIs(CipherCombo combo) throws IOException {
        HealthFixture v = withDocsCopied(combo);
        try (FileChannel ch = FileChannel.open(v.entry("/docs/" + DAMAGED), StandardOpenOption.WRITE)) {
            ch.truncate(30);
        }
        theDamagedFileIsCopiedAsItIs(v, DAMAGED, "impossible ciphertext length 30");
    }

    /** A middle unit (a failing last unit would be an interrupted write, repaired on its own). */
    @Test
    void aFileWithAUnitFailingAuthenticationIsCopiedAsItIs() throws IOException {
        HealthFixture v = withDocsCopied(CipherCombo.SIV_XTSHMAC); // SIV_XTS units carry no tag
        overwrite(v.entry("/docs/" + MULTI_UNIT), HEADER + UNIT + 20, new byte[] {0x55});
        theDamagedFileIsCopiedAsItIs(v, MULTI_UNIT, "unit 1 failed authentication (bytes 4096..8191)");
    }

    /** The FileChannel of a source whose header is damaged was left open by every repair. */
    @Test
    void aDamagedHeaderLeavesNoDescriptorOpen() throws IOException {
        HealthFixture v = withDocsCopied(CipherCombo.SIV_XTSHMAC);
        overwrite(v.entry("/docs/" + DAMAGED), 20, new byte[] {0x55, 0x55, 0x55, 0x55});
        v.aged();
        try (UnlockedVault u = VaultAccess.unlock(v.vault, HealthFixture.PASSPHRASE.toCharArray()); VaultHealth health = VaultHealth.of(u)) {
            HealthReport report = health.check();
            List<String> before = descriptorsInto(v.vault);
            health.repair(report);
            assertThat(descriptorsInto(v.vault)).as("files of the vault open after the repair").isEqualTo(before);
        }
    }

    /**
     * A payload that cannot be read at all (here a dangling symlink where a symlink entry's
     * {@code symlink.c9r} belongs) fails the repair; the storage folders its copy had made are removed
     * again, so each attempt leaves the vault as it was, with no orphan.
     */
    @Test
    void aFailedCopyRemovesTheFoldersItMade() throws IOException {
        HealthFixture v = withDocsCopied(CipherCombo.SIV_XTSHMAC);
        try (CofferFileSystem fs = v.open()) {
            Files.createSymbolicLink(fs.getPath("/docs/deep/deeper/link"), fs.getPath("bottom.bin"));
        }
        v.aged();
        Path payload = v.entry("/docs/deep/deeper/link").resolve("symlink.c9r");
        Files.delete(payload);
        Files.createSymbolicLink(payload, tmp.resolve("nothing here"));
        Set<String> before = pathsIn(v.vault);
        for (int attempt = 1; attempt <= 2; attempt++) {
            try (UnlockedVault u = VaultAccess.unlock(v.vault, HealthFixture.PASSPHRASE.toCharArray());
                    VaultHealth health = VaultHealth.of(u)) {
                HealthReport report = health.check();
                assertThat(report.ofKind(FindingKind.DUPLICATE_DIRECTORY_ID)).singleElement()
                        .satisfies(f -> assertThat(f.repairable()).isTrue());
                assertThat(health.repair(report).failures()).as("attempt %d", attempt).singleElement().asString()
                        .contains("a new directory ID");
            }
            assertThat(pathsIn(v.vault)).as("the vault after attempt %d", attempt).isEqualTo(before);
        }
    }

    private void theDamagedFileIsCopiedAsItIs(HealthFixture v, String damaged, String damage) throws IOException {
        Files.setPosixFilePermissions(v.entry("/docs/" + damaged), PosixFilePermissions.fromString("rw-------"));
        v.aged();
        String second;
        try (UnlockedVault u = VaultAccess.unlock(v.vault, HealthFixture.PASSPHRASE.toCharArray()); VaultHealth health = VaultHealth.of(u)) {
            HealthReport report = health.check();
            assertThat(report.ofKind(FindingKind.DUPLICATE_DIRECTORY_ID)).singleElement()
                    .satisfies(f -> assertThat(f.repairable()).isTrue());
            second = report.ofKind(FindingKind.DUPLICATE_DIRECTORY_ID).get(0).cleartextPath();
            VaultHealth.RepairOutcome outcome = health.repair(report);
            assertThat(outcome.failures()).isEmpty();
            String copied = v.relative(v.entry(second + "/" + damaged));
            assertThat(outcome.notes()).singleElement().asString()
                    .startsWith(second + "/" + damaged + " (" + copied + ") was copied byte for byte")
                    .contains("damaged (" + damage + ")");
        }
        String first = second.equals("/docs") ? "/docs copy" : "/docs";
        HealthReport after = v.check();
        assertThat(after.ofKind(FindingKind.DUPLICATE_DIRECTORY_ID)).as("the ID is no longer shared").isEmpty();
        assertThat(after.findings().stream().map(Finding::cleartextPath).collect(Collectors.toSet()))
                .as("only the damaged file remains, in both folders")
                .containsExactlyInAnyOrder(first + "/" + damaged, second + "/" + damaged);
        assertThat(v.storage(second)).isNotEqualTo(v.storage(first));

        Path original = v.entry(first + "/" + damaged);
        Path copy = v.entry(second + "/" + damaged);
        assertThat(copy).hasSameBinaryContentAs(original);
        assertThat(Files.getPosixFilePermissions(copy)).isEqualTo(Files.getPosixFilePermissions(original));
        assertThat(Arrays.copyOf(Files.readAllBytes(v.entry(second + "/report.txt")), HEADER))
                .as("an intact file is encrypted again").isNotEqualTo(Arrays.copyOf(Files.readAllBytes(v.entry(first + "/report.txt")), HEADER));
        try (CofferFileSystem fs = v.open()) {
            Files.delete(fs.getPath(second, "report.txt"));
            Files.delete(fs.getPath(second, damaged));
            assertThat(Files.readAllBytes(fs.getPath(first, "report.txt"))).isEqualTo(HealthFixture.content(1, 10_000));
            assertThat(Files.exists(fs.getPath(first, damaged))).as("the damaged file in the other folder").isTrue();
        }
        assertThat(original).exists();
    }

    /** A vault with a folder "/docs copy" whose pointer holds the directory ID of "/docs" (and no orphan of its own). */
    private HealthFixture withDocsCopied(CipherCombo combo) throws IOException {
        HealthFixture v = HealthFixture.create(tmp, combo);
        Path entry = v.storage("/").resolve(v.encryptedName("/", "docs copy"));
        Files.createDirectory(entry);
        Files.copy(v.entry("/docs").resolve("dir.c9r"), entry.resolve("dir.c9r"));
        v.aged();
        return v;
    }

    private static void overwrite(Path file, long position, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), position);
        }
    }

    /** Every path below {@code root} (links not followed), relative. */
    private static Set<String> pathsIn(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.map(p -> root.relativize(p).toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** The targets of this process's open descriptors that lie in {@code dir}, sorted. */
    private static List<String> descriptorsInto(Path dir) throws IOException {
        String prefix = dir.toRealPath().toString() + "/";
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.map(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString();
                } catch (IOException e) {
                    return ""; // closed while listed (the listing's own descriptor)
                }
            }).filter(target -> target.startsWith(prefix)).sorted().collect(Collectors.toList());
        }
    }
}
