package dev.coffer.core.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Repairs must never make things worse when the vault is not what the check saw or could not be
 * read completely: a sync client delivering files between check and repair, a report repaired
 * twice, a pointer the walk cannot follow, young leftovers a sync may still complete.
 */
class RepairSafetyTest {
    @TempDir
    Path tmp;

    private static List<String> lostAndFound(HealthFixture v) throws IOException {
        try (CofferFileSystem fs = v.open()) {
            Path lf = fs.getPath("/LOST+FOUND");
            if (!Files.exists(lf)) {
                return List.of();
            }
            try (Stream<Path> s = Files.list(lf)) {
                return s.map(p -> p.getFileName().toString()).toList();
            }
        }
    }

    @Test
    void aReportRepairedTwiceAdoptsItsOrphanOnce() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        CraftedDamageTest.deleteTree(v.entry("/docs"));
        v.aged();
        try (UnlockedVault u = VaultAccess.unlock(v.vault, HealthFixture.PASSPHRASE.toCharArray()); VaultHealth health = VaultHealth.of(u)) {
            HealthReport report = health.check();
            assertThat(health.repair(report).failures()).isEmpty();
            assertThat(health.repair(report).failures()).isEmpty();
            assertThat(health.check().findings()).isEmpty();
        }
        assertThat(lostAndFound(v)).hasSize(1);
    }

    @Test
    void aPointerArrivingAfterTheCheckStopsAdoptionAndRemoval() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path docs = v.entry("/docs");
        Path empty = v.entry("/empty");
        Path emptyStorage = v.storage("/empty");
        Path saved = Files.createDirectories(tmp.resolve("saved"));
        Files.move(docs, saved.resolve("docs"));
        Files.move(empty, saved.resolve("empty"));
        v.aged();
        try (UnlockedVault u = VaultAccess.unlock(v.vault, HealthFixture.PASSPHRASE.toCharArray()); VaultHealth health = VaultHealth.of(u)) {
            HealthReport report = health.check();
            assertThat(report.ofKind(FindingKind.ORPHAN_FOLDER)).hasSize(2).allMatch(Finding::repairable);
            // A sync client delivers the pointers between the check and the repair.
            Files.move(saved.resolve("docs"), docs);
            Files.move(saved.resolve("empty"), empty);
            VaultHealth.RepairOutcome outcome = health.repair(report);
            assertThat(outcome.failures()).hasSize(2).allMatch(s -> s.contains("no orphan any more"));
            assertThat(health.check().findings()).isEmpty();
        }
        assertThat(lostAndFound(v)).isEmpty();
        assertThat(emptyStorage.resolve("dirid.c9r")).exists();
    }

    @Test
    void removalsDeleteOnlyWhatTheCheckSaw() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path storage = v.storage("/empty");
        CraftedDamageTest.deleteTree(v.entry("/empty")); // an empty orphan
        Path entry = v.entry("/docs/deep/deeper");
        Path deeper = v.storage("/docs/deep/deeper");
        Files.delete(entry.resolve("dir.c9r")); // an empty entry folder (and an orphan with content)
        v.aged();
        try (UnlockedVault u = VaultAccess.unlock(v.vault, HealthFixture.PASSPHRASE.toCharArray()); VaultHealth health = VaultHealth.of(u)) {
            HealthReport report = health.check();
            assertThat(report.findings()).filteredOn(f -> f.ciphertextPath().equals(v.relative(storage))
                    || f.ciphertextPath().equals(v.relative(entry))).hasSize(2).allMatch(Finding::repairable);
            // Another device's Coffer (or a sync client) writes into both between check and repair.
            Path arrivedInOrphan = Files.write(storage.resolve(".coffer-tmp-00000000000000cc"), new byte[] {7});
            Path arrivedInEntry = Files.write(entry.resolve(".coffer-tmp-00000000000000dd"), new byte[] {8});
            VaultHealth.RepairOutcome outcome = health.repair(report);
            assertThat(outcome.failures()).hasSize(2).allMatch(s -> s.contains("something new"));
            assertThat(arrivedInOrphan).exists();
            assertThat(arrivedInEntry).exists();
            assertThat(storage.resolve("dirid.c9r")).exists();
        }
        assertThat(deeper).exists();
    }

    @Test
    void aPointerWhoseNameDoesNotDecryptKeepsItsTargetFromAdoption() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path docs = v.entry("/docs");
        Path docsStorage = v.storage("/docs");
        // The name is damaged, the pointer inside is intact: adopting docs would give it a second pointer.
        Files.move(docs, docs.resolveSibling("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.c9r"));
        v.aged();
        HealthReport report = v.check();
        assertThat(report.ofKind(FindingKind.UNDECRYPTABLE_NAME)).hasSize(1);
        assertThat(report.ofKind(FindingKind.ORPHAN_FOLDER)).singleElement().satisfies(f -> {
            assertThat(f.ciphertextPath()).isEqualTo(v.relative(docsStorage));
            assertThat(f.repairable()).isFalse();
            assertThat(f.detail()).contains("holds its ID");
        });
        assertThat(report.repairs()).isEmpty();
        v.repairAndCheck();
        assertThat(lostAndFound(v)).isEmpty();
    }

    @Test
    void youngOrphansAndHeaderOnlyFilesAreNotesLeftForLater() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path docsStorage = v.storage("/docs");
        Path emptyStorage = v.storage("/empty");
        Path report = v.entry("/big.bin");
        CraftedDamageTest.deleteTree(v.entry("/docs"));
        CraftedDamageTest.deleteTree(v.entry("/empty"));
        try (FileChannel ch = FileChannel.open(report, StandardOpenOption.WRITE)) {
            ch.truncate(48);
        }
        v.aged();
        // A sync client rewrote one file in docs a minute ago (the folder's own time stays old); the empty orphan's
        // dirid.c9r and the header-only file were written just now.
        Path recent;
        try (Stream<Path> s = Files.list(docsStorage)) {
            recent = s.filter(p -> !p.getFileName().toString().equals("dirid.c9r")).findFirst().orElseThrow();
        }
        // A file is stored as a .c9r file, a folder as a .c9r folder: age whichever the listing gave first.
        Path rewritten = recent;
        if (Files.isDirectory(recent)) {
            try (Stream<Path> s = Files.list(recent)) {
                rewritten = s.findFirst().orElseThrow();
            }
        }
        Files.setLastModifiedTime(rewritten, FileTime.from(Instant.now().minusSeconds(60)));
        Files.setLastModifiedTime(emptyStorage.resolve("dirid.c9r"), FileTime.from(Instant.now()));
        Files.setLastModifiedTime(report, FileTime.from(Instant.now()));
        HealthReport young = v.check();
        assertThat(young.findings()).extracting(Finding::ciphertextPath, Finding::severity, Finding::repairable).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(v.relative(docsStorage), Severity.INFO, false),
                org.assertj.core.groups.Tuple.tuple(v.relative(emptyStorage), Severity.INFO, false),
                org.assertj.core.groups.Tuple.tuple(v.relative(report), Severity.INFO, false));
        assertThat(young.healthy()).isTrue();
        assertThat(young.repairs()).isEmpty();

        v.aged();
        HealthReport old = v.check();
        assertThat(old.findings()).hasSize(3).allMatch(Finding::repairable);
        assertThat(v.repairAndCheck().findings()).isEmpty();
        assertThat(lostAndFound(v)).hasSize(1);
        assertThat(emptyStorage).doesNotExist();
        assertThat(report).isEmptyFile();
    }
}
