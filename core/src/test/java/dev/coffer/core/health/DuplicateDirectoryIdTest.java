package dev.coffer.core.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two folder pointers holding one directory ID, as a copy of a folder's entry folder (by a sync
 * client or by hand) makes: the check reports the second one; repair gives it a new ID and a copy of
 * the whole subtree (names encrypted again, subfolders with new IDs of their own), deletes nothing,
 * and afterwards the two folders hold the same cleartext and change separately.
 */
class DuplicateDirectoryIdTest {
    /** A content file's header: nonce and encrypted fileSecret (spec 5.1). */
    private static final int HEADER = 48;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(CipherCombo.class)
    void theSecondPointerGetsANewIdAndACopyOfTheWholeSubtree(CipherCombo combo) throws IOException {
        HealthFixture v = HealthFixture.create(tmp, combo);
        try (CofferFileSystem fs = v.open()) {
            Files.createDirectory(fs.getPath("/docs copy"));
            Files.createSymbolicLink(fs.getPath("/docs/link to report"), fs.getPath("report.txt"));
        }
        // the copied entry's pointer holds the ID of /docs (its own, empty storage folder is left an orphan)
        Files.copy(v.entry("/docs").resolve("dir.c9r"), v.entry("/docs copy").resolve("dir.c9r"), StandardCopyOption.REPLACE_EXISTING);
        v.aged();
        Map<String, String> original;
        try (CofferFileSystem fs = v.open()) {
            original = tree(fs.getPath("/docs"));
            assertThat(tree(fs.getPath("/docs copy"))).as("both pointers show the same folder").isEqualTo(original);
        }
        Path storageOfDocs = v.storage("/docs");
        Map<String, String> docsBefore = Snapshots.of(storageOfDocs);

        HealthReport report = v.check();
        assertThat(report.ofKind(FindingKind.DUPLICATE_DIRECTORY_ID)).singleElement().satisfies(f -> {
            assertThat(f.cleartextPath()).isIn("/docs", "/docs copy");
            assertThat(f.repairable()).isTrue();
            assertThat(f.detail()).contains("repair gives this one a new ID and a copy of them");
        });
        String second = report.ofKind(FindingKind.DUPLICATE_DIRECTORY_ID).get(0).cleartextPath();
        String first = second.equals("/docs") ? "/docs copy" : "/docs";

        assertThat(v.repairAndCheck().findings()).as("after the repair").isEmpty();
        assertThat(Snapshots.of(storageOfDocs)).as("the shared storage folder, now the first pointer's alone").isEqualTo(docsBefore);
        assertThat(v.storage(first)).isEqualTo(storageOfDocs);
        assertThat(v.storage(second)).isNotEqualTo(storageOfDocs);
        assertThat(v.storage(second + "/deep")).as("subfolders get new IDs too").isNotEqualTo(v.storage(first + "/deep"));
        try (CofferFileSystem fs = v.open()) {
            assertThat(tree(fs.getPath(first))).isEqualTo(original);
            assertThat(tree(fs.getPath(second))).isEqualTo(original);
            assertThat(Files.readSymbolicLink(fs.getPath(second, "link to report")).toString()).isEqualTo("report.txt");
            // from now on they change separately
            Files.writeString(fs.getPath(second, "deep/new.txt"), "only here");
            Files.delete(fs.getPath(second, "report.txt"));
            assertThat(fs.getPath(first, "deep/new.txt")).doesNotExist();
            assertThat(Files.readAllBytes(fs.getPath(first, "report.txt"))).isEqualTo(HealthFixture.content(1, 10_000));
        }
        Map<String, String> snapshot = Snapshots.of(v.vault);
        try (UnlockedVault u = VaultAccess.unlock(v.vault, HealthFixture.PASSPHRASE.toCharArray()); VaultHealth health = VaultHealth.of(u)) {
            HealthReport again = health.check();
            assertThat(again.findings()).isEmpty();
            assertThat(health.repair(report).failures()).as("the old report repaired again").isEmpty();
        }
        assertThat(Snapshots.of(v.vault)).as("a second repair changes nothing").isEqualTo(snapshot);
    }

    /**
     * The copies are encrypted again, each with a header of its own: every file has its own random
     * fileSecret (spec 5.1). A byte-for-byte copy shared it, and with it every unit's keys.
     */
    @ParameterizedTest
    @EnumSource(CipherCombo.class)
    void theCopiedFilesAndLinksGetHeadersOfTheirOwn(CipherCombo combo) throws IOException {
        HealthFixture v = withDuplicateDocs(combo);
        try (CofferFileSystem fs = v.open()) {
            Files.createSymbolicLink(fs.getPath("/docs/link to report"), fs.getPath("report.txt"));
        }
        assertThat(v.repairAndCheck().findings()).as("after the repair").isEmpty();
        for (String name : new String[] {"report.txt", "link to report"}) {
            Path a = payloadOf(v.entry("/docs/" + name));
            Path b = payloadOf(v.entry("/docs copy/" + name));
            assertThat(Arrays.copyOf(Files.readAllBytes(b), HEADER)).as("%s's header", name)
                    .isNotEqualTo(Arrays.copyOf(Files.readAllBytes(a), HEADER));
        }
        try (CofferFileSystem fs = v.open()) {
            assertThat(Files.readAllBytes(fs.getPath("/docs copy/report.txt"))).isEqualTo(HealthFixture.content(1, 10_000));
            assertThat(Files.readSymbolicLink(fs.getPath("/docs copy/link to report")).toString()).isEqualTo("report.txt");
        }
    }

    /** Spec 1: a unit pasted from one of the two copies into the other fails authentication. */
    @org.junit.jupiter.api.Test
    void aUnitPastedFromOneCopyIntoTheOtherFailsAuthentication() throws IOException {
        HealthFixture v = withDuplicateDocs(CipherCombo.SIV_XTSHMAC);
        assertThat(v.repairAndCheck().findings()).as("after the repair").isEmpty();
        try (CofferFileSystem fs = v.open();
                FileChannel ch = FileChannel.open(fs.getPath("/docs copy/report.txt"), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap("edited in the copy".getBytes(StandardCharsets.US_ASCII)), 5000); // unit 1 only
        }
        int unit = 4096 + 32;
        byte[] unit1 = Arrays.copyOfRange(Files.readAllBytes(v.entry("/docs copy/report.txt")), HEADER + unit, HEADER + 2 * unit);
        try (FileChannel ch = FileChannel.open(v.entry("/docs/report.txt"), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(unit1), HEADER + unit);
        }
        try (CofferFileSystem fs = v.open()) {
            assertThatThrownBy(() -> Files.readAllBytes(fs.getPath("/docs/report.txt")))
                    .isInstanceOf(IOException.class).hasMessageContaining("unit 1 failed authentication");
        }
    }

    /**
     * The vault shows a ciphertext file's mode as the file's permissions: a copy keeps it (a new file
     * got 0666 less the umask, so a private 0600 file became readable by others in the copy).
     */
    @ParameterizedTest
    @EnumSource(CipherCombo.class)
    void theCopiesKeepTheirModes(CipherCombo combo) throws IOException {
        HealthFixture v = withDuplicateDocs(combo);
        Map<String, String> modes = Map.of("report.txt", "rwx------", "deep/deeper/bottom.bin", "rw-------",
                "deep/tiny.txt", "rw-r--r--");
        for (Map.Entry<String, String> m : modes.entrySet()) {
            Files.setPosixFilePermissions(v.entry("/docs/" + m.getKey()), PosixFilePermissions.fromString(m.getValue()));
        }
        assertThat(v.repairAndCheck().findings()).as("after the repair").isEmpty();
        try (CofferFileSystem fs = v.open()) {
            for (Map.Entry<String, String> m : modes.entrySet()) {
                for (String folder : new String[] {"/docs", "/docs copy"}) {
                    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fs.getPath(folder, m.getKey()))))
                            .as("%s/%s", folder, m.getKey()).isEqualTo(m.getValue());
                }
            }
        }
    }

    /** A vault whose "/docs copy" pointer holds the directory ID of "/docs", as a copied entry folder does. */
    private HealthFixture withDuplicateDocs(CipherCombo combo) throws IOException {
        HealthFixture v = HealthFixture.create(tmp, combo);
        try (CofferFileSystem fs = v.open()) {
            Files.createDirectory(fs.getPath("/docs copy"));
        }
        Files.copy(v.entry("/docs").resolve("dir.c9r"), v.entry("/docs copy").resolve("dir.c9r"), StandardCopyOption.REPLACE_EXISTING);
        v.aged();
        return v;
    }

    /** A file entry's ciphertext file, or a symlink entry's {@code symlink.c9r}. */
    private static Path payloadOf(Path entry) {
        return Files.isDirectory(entry) ? entry.resolve("symlink.c9r") : entry;
    }

    /** Every file (its bytes, in hex), link (its target) and folder ("dir") below {@code root}, by relative path. */
    private static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> result = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                String rel = root.relativize(p).toString();
                if (Files.isSymbolicLink(p)) {
                    result.put(rel, "link " + Files.readSymbolicLink(p));
                } else {
                    result.put(rel, Files.isDirectory(p) ? "dir" : HexFormat.of().formatHex(Files.readAllBytes(p)));
                }
            }
        }
        return result;
    }
}
