package dev.coffer.core.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.vault.CipherCombo;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each kind of damage made on purpose in a fresh vault: the check finds it (naming the cleartext
 * path where it can), repair fixes what it can, the next check is clean apart from what cannot be
 * repaired, and nothing is lost.
 */
class CraftedDamageTest {
    @TempDir
    Path tmp;

    private static Finding only(HealthReport report) {
        assertThat(report.findings()).as("findings").hasSize(1);
        return report.findings().get(0);
    }

    @ParameterizedTest
    @EnumSource(CipherCombo.class)
    void aHealthyVaultHasNoFindings(CipherCombo combo) throws IOException {
        HealthFixture v = HealthFixture.create(tmp, combo);
        HealthReport report = v.check();
        assertThat(report.findings()).isEmpty();
        assertThat(report.repairs()).isEmpty();
        assertThat(report.healthy()).isTrue();
    }

    @Test
    void anOrphanFolderIsAdoptedIntoLostAndFoundWithItsWholeSubtree() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path docsStorage = v.storage("/docs");
        Path deepStorage = v.storage("/docs/deep");
        deleteTree(v.entry("/docs")); // the pointer is lost; docs and everything below are orphans
        v.aged();
        Finding f = only(v.check());
        assertThat(f.kind()).isEqualTo(FindingKind.ORPHAN_FOLDER);
        assertThat(f.ciphertextPath()).isEqualTo(v.relative(docsStorage)); // only the top of the orphaned subtree
        assertThat(f.repairable()).isTrue();
        assertThat(v.check().findings()).noneMatch(x -> x.ciphertextPath().equals(v.relative(deepStorage)));

        assertThat(v.repairAndCheck().findings()).isEmpty();
        try (CofferFileSystem fs = v.open()) {
            Path lostAndFound = fs.getPath("/LOST+FOUND");
            List<Path> adopted;
            try (Stream<Path> s = Files.list(lostAndFound)) {
                adopted = s.toList();
            }
            assertThat(adopted).hasSize(1);
            assertThat(Files.readAllBytes(adopted.get(0).resolve("report.txt"))).isEqualTo(HealthFixture.content(1, 10_000));
            assertThat(Files.readAllBytes(adopted.get(0).resolve("deep/deeper/bottom.bin"))).isEqualTo(HealthFixture.content(2, 3 * 4096 + 7));
        }
        assertThat(v.repairAndCheck().findings()).as("a second repair finds nothing to do").isEmpty();
    }

    @Test
    void aLostAndFoundThatIsNoFolderStopsOnlyTheAdoptionAndSaysWhy() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        try (CofferFileSystem fs = v.open()) {
            Files.writeString(fs.getPath("/LOST+FOUND"), "a file of the user's");
        }
        deleteTree(v.entry("/docs"));
        Files.delete(v.storage("/").resolve("dirid.c9r"));
        v.aged();
        try (var u = dev.coffer.core.vault.VaultAccess.unlock(v.vault, HealthFixture.PASSPHRASE.toCharArray());
                VaultHealth health = VaultHealth.of(u)) {
            HealthReport report = health.check();
            VaultHealth.RepairOutcome outcome = health.repair(report);
            assertThat(outcome.failures()).singleElement().asString().contains("/LOST+FOUND exists but is not a usable folder");
            assertThat(outcome.done()).hasSize(1); // the root's dirid.c9r
            assertThat(health.check().findings()).extracting(Finding::kind).containsExactly(FindingKind.ORPHAN_FOLDER);
        }
        try (CofferFileSystem fs = v.open()) {
            assertThat(Files.readString(fs.getPath("/LOST+FOUND"))).isEqualTo("a file of the user's");
        }
    }

    @Test
    void anEmptyOrphanIsRemoved() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path storage = v.storage("/empty");
        deleteTree(v.entry("/empty"));
        v.aged();
        Finding f = only(v.check());
        assertThat(f.kind()).isEqualTo(FindingKind.ORPHAN_FOLDER);
        assertThat(f.detail()).contains("empty");
        assertThat(v.repairAndCheck().findings()).isEmpty();
        assertThat(storage).doesNotExist();
    }

    @Test
    void theStorageFolderOfAnInterruptedFolderCreationIsRemoved() throws IOException {
        // Killed between creating the storage folder and renaming its dirid.c9r into place (CrashSafetyIT found it).
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        String prefix = Stream.of("AB", "AC", "AD", "AE").filter(x -> !Files.exists(v.vault.resolve("d").resolve(x))).findFirst().orElseThrow();
        Path storage = Files.createDirectories(v.vault.resolve("d").resolve(prefix).resolve("CDEFGHIJKLMNOPQRSTUVWXYZ234567"));
        Files.write(storage.resolve(".coffer-tmp-0123456789abcdef"), new byte[] {1, 2, 3});
        v.aged();
        Finding f = only(v.check());
        assertThat(f.kind()).isEqualTo(FindingKind.ORPHAN_FOLDER);
        assertThat(f.repairable()).isTrue();
        assertThat(v.repairAndCheck().findings()).isEmpty();
        assertThat(storage.getParent()).doesNotExist();
    }

    @Test
    void anOrphanWithoutDirIdIsReportedAndLeftAlone() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path storage = v.storage("/docs/deep");
        Path below = v.storage("/docs/deep/deeper");
        deleteTree(v.entry("/docs/deep"));
        Files.delete(storage.resolve("dirid.c9r"));
        v.aged();
        HealthReport report = v.check();
        assertThat(report.findings()).extracting(Finding::kind, Finding::ciphertextPath, Finding::repairable).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(FindingKind.ORPHAN_FOLDER, v.relative(storage), false),
                org.assertj.core.groups.Tuple.tuple(FindingKind.ORPHAN_FOLDER, v.relative(below), false));
        // The folder below still has its dirid.c9r, but the orphan without one still points to it: adopting it would
        // give it a second pointer the day the other one is repaired by hand. Both stay as they are.
        assertThat(report.findings()).filteredOn(x -> x.ciphertextPath().equals(v.relative(below))).singleElement()
                .extracting(Finding::detail).asString().contains("holds its ID");
        Map<String, String> before = Snapshots.of(v.vault);
        assertThat(v.repairAndCheck().findings()).isEqualTo(report.findings());
        assertThat(Snapshots.of(v.vault)).isEqualTo(before);
        assertThat(storage).exists();
    }

    @Test
    void aDanglingPointerGetsAnEmptyStorageFolder() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        deleteTree(v.storage("/empty"));
        Finding f = only(v.check());
        assertThat(f.kind()).isEqualTo(FindingKind.DANGLING_POINTER);
        assertThat(f.cleartextPath()).isEqualTo("/empty");
        assertThat(v.repairAndCheck().findings()).isEmpty();
        try (CofferFileSystem fs = v.open(); Stream<Path> s = Files.list(fs.getPath("/empty"))) {
            assertThat(s.count()).isZero();
        }
    }

    @Test
    void aMissingOrDamagedDirIdIsRewrittenFromTheKnownId() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Files.delete(v.storage("/docs").resolve("dirid.c9r"));
        Files.write(v.storage("/docs/deep").resolve("dirid.c9r"), new byte[100]);
        HealthReport report = v.check();
        assertThat(report.findings()).extracting(Finding::kind, Finding::cleartextPath)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(FindingKind.MISSING_DIRID, "/docs"),
                        org.assertj.core.groups.Tuple.tuple(FindingKind.DAMAGED_DIRID, "/docs/deep"));
        assertThat(v.repairAndCheck().findings()).isEmpty();
        assertThat(v.storage("/docs").resolve("dirid.c9r")).exists();
    }

    @Test
    void entriesWithNoOrSeveralPayloadsAreIncomplete() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path link = v.entry("/link");
        Files.writeString(link.resolve("dir.c9r"), java.util.UUID.randomUUID().toString());
        Path deeper = v.storage("/docs/deep/deeper");
        Files.delete(v.entry("/docs/deep/deeper").resolve("dir.c9r"));
        HealthFixture.age(deeper); // the orphan is old enough to adopt; the empty entry folder stays a young note
        HealthReport report = v.check();
        assertThat(report.ofKind(FindingKind.INCOMPLETE_ENTRY)).extracting(Finding::cleartextPath)
                .containsExactlyInAnyOrder("/link", "/docs/deep/deeper");
        assertThat(report.ofKind(FindingKind.INCOMPLETE_ENTRY)).noneMatch(Finding::repairable);
        // The deeper folder's storage is now an orphan; repair adopts it, the incomplete entries stay.
        HealthReport after = v.repairAndCheck();
        assertThat(after.findings()).extracting(Finding::kind).containsOnly(FindingKind.INCOMPLETE_ENTRY);
    }

    @Test
    void anEmptyEntryFolderIsANoteForADayThenRemovedByRepair() throws IOException {
        // rmdir killed after dir.c9r was removed and before the entry folder was (CrashSafetyIT found it, seed 77).
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path entry = v.entry("/empty");
        Path storage = v.storage("/empty");
        deleteTree(storage);
        Files.delete(entry.resolve("dir.c9r"));
        Finding young = only(v.check());
        assertThat(young.kind()).isEqualTo(FindingKind.INCOMPLETE_ENTRY);
        assertThat(young.severity()).isEqualTo(Severity.INFO);
        assertThat(young.repairable()).isFalse();
        assertThat(only(v.repairAndCheck())).isEqualTo(young);

        twoDaysOld(entry);
        Finding old = only(v.check());
        assertThat(old.severity()).isEqualTo(Severity.WARNING);
        assertThat(old.repairable()).isTrue();
        assertThat(v.repairAndCheck().findings()).isEmpty();
        assertThat(entry).doesNotExist();
    }

    @Test
    void aMissingNameFileIsRestoredFromACopyAndOtherwiseReported() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        String longFile = "/docs/" + "long name ".repeat(20) + ".txt";
        Path entry = v.entry(longFile);
        assertThat(entry.getFileName().toString()).endsWith(LongNames.C9S);
        // An interrupted atomic write left the name in a temporary file.
        Files.move(entry.resolve(LongNames.NAME_FILE), entry.resolve(".coffer-tmp-0123456789abcdef"));
        HealthReport report = v.check();
        assertThat(report.findings()).extracting(Finding::kind)
                .containsExactlyInAnyOrder(FindingKind.MISSING_NAME_FILE, FindingKind.TEMPORARY_FILE);
        Finding f = report.ofKind(FindingKind.MISSING_NAME_FILE).get(0);
        assertThat(f.kind()).isEqualTo(FindingKind.MISSING_NAME_FILE);
        assertThat(f.cleartextPath()).isEqualTo(longFile);
        assertThat(f.repairable()).isTrue();
        HealthReport after = v.repairAndCheck();
        assertThat(after.findings()).extracting(Finding::kind).containsExactly(FindingKind.TEMPORARY_FILE);
        assertThat(after.healthy()).isTrue();
        try (CofferFileSystem fs = v.open()) {
            assertThat(Files.readAllBytes(fs.getPath(longFile))).isEqualTo(HealthFixture.content(5, 100));
        }
    }

    @Test
    void aLongNamedEntryFolderHoldingNothingIsOnlyANote() throws IOException {
        // Creating a long-named entry killed before its name.c9s (and payload) were written.
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path entry = Files.createDirectory(v.storage("/docs").resolve("AAAAAAAAAAAAAAAAAAAAAAAAAAA=.c9s"));
        Finding f = only(v.check());
        assertThat(f.kind()).isEqualTo(FindingKind.INCOMPLETE_ENTRY);
        assertThat(f.severity()).isEqualTo(Severity.INFO);
        assertThat(f.ciphertextPath()).isEqualTo(v.relative(entry));
    }

    @Test
    void damagedAndMismatchedNameFilesAreReported() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path file = v.entry("/docs/" + "long name ".repeat(20) + ".txt");
        Path folder = v.entry("/docs/" + "long folder ".repeat(15));
        Files.write(file.resolve(LongNames.NAME_FILE), new byte[] {0, 1, 2});
        Files.writeString(folder.resolve(LongNames.NAME_FILE), "A".repeat(240) + ".c9r");
        HealthReport report = v.check();
        assertThat(report.ofKind(FindingKind.DAMAGED_NAME_FILE)).extracting(Finding::ciphertextPath).containsExactly(v.relative(file));
        assertThat(report.ofKind(FindingKind.MISMATCHED_NAME_FILE)).extracting(Finding::ciphertextPath).containsExactly(v.relative(folder));
        assertThat(report.findings()).filteredOn(f -> f.kind().name().endsWith("NAME_FILE")).noneMatch(Finding::repairable);
    }

    @Test
    void aPayloadThatIsNoRegularFileIsUnreadableAndTheCheckGoesOn() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        String longFile = "/docs/" + "long name ".repeat(20) + ".txt";
        Path contents = v.entry(longFile).resolve("contents.c9r");
        Files.delete(contents);
        Files.createDirectory(contents);
        flip(v.entry("/big.bin"), 20);
        HealthReport report = v.check();
        assertThat(report.findings()).extracting(Finding::kind, Finding::cleartextPath).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(FindingKind.UNREADABLE, longFile),
                org.assertj.core.groups.Tuple.tuple(FindingKind.DAMAGED_HEADER, "/big.bin"));
    }

    @Test
    void aNameStoredInNfdIsStoredInNfcByRepair() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        try (CofferFileSystem fs = v.open()) {
            Files.write(fs.getPath("/docs/\u00c5ngstr\u00f6m.txt"), HealthFixture.content(9, 300));
        }
        Path nfc = v.entry("/docs/\u00c5ngstr\u00f6m.txt");
        Path nfd = nfc.resolveSibling(v.encryptedName("/docs", "A\u030angstro\u0308m.txt"));
        Files.move(nfc, nfd); // as another tool would have stored it
        Finding f = only(v.check());
        assertThat(f.kind()).isEqualTo(FindingKind.NON_NFC_NAME);
        assertThat(f.cleartextPath()).isEqualTo("/docs/\u00c5ngstr\u00f6m.txt");
        assertThat(f.repairable()).isTrue();
        assertThat(v.repairAndCheck().findings()).isEmpty();
        assertThat(nfc).exists();
        assertThat(nfd).doesNotExist();
        try (CofferFileSystem fs = v.open()) {
            assertThat(Files.readAllBytes(fs.getPath("/docs/\u00c5ngstr\u00f6m.txt"))).isEqualTo(HealthFixture.content(9, 300));
        }
    }

    @Test
    void aConflictCopyIsResolvedAsSpec6Says() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path report = v.entry("/docs/report.txt");
        Path copy = report.resolveSibling(report.getFileName().toString().replace(".c9r", " (1).c9r"));
        Files.copy(v.entry("/docs/deep/tiny.txt"), copy); // another file's content: a different version
        Finding f = only(v.check());
        assertThat(f.kind()).isEqualTo(FindingKind.UNRESOLVED_CONFLICT);
        assertThat(f.cleartextPath()).isEqualTo("/docs/report.txt");
        assertThat(v.repairAndCheck().findings()).isEmpty();
        try (CofferFileSystem fs = v.open()) {
            assertThat(Files.readAllBytes(fs.getPath("/docs/report.txt"))).isEqualTo(HealthFixture.content(1, 10_000));
            assertThat(fs.getPath("/docs/report (1).txt")).exists();
        }
    }

    @Test
    void decoratedPayloadsInAConflictCopyAreRepairedAsTheListingResolvesThem() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        String longName = "/docs/" + "long name ".repeat(20) + ".txt";
        Path entry = v.entry(longName);
        Path copy = entry.resolveSibling(entry.getFileName().toString().replace(".c9s", " (1).c9s"));
        Files.createDirectory(copy); // a copy folder whose own payload the sync never delivered
        Files.copy(entry.resolve("name.c9s"), copy.resolve("name.c9s"));
        Files.copy(v.entry("/docs/deep/tiny.txt"), copy.resolve("contents (1).c9r"));
        v.aged();

        HealthReport report = v.check();

        assertThat(report.ofKind(FindingKind.UNRESOLVED_CONFLICT)).isNotEmpty().allMatch(Finding::repairable)
                .noneMatch(f -> f.detail().contains("left alone"));
        assertThat(v.repairAndCheck().findings()).isEmpty();
        assertThat(copy).doesNotExist();
        try (CofferFileSystem fs = v.open()) {
            assertThat(Files.readAllBytes(fs.getPath(longName + " (Conflict 1)"))).isEqualTo(HealthFixture.content(3, 5));
            assertThat(Files.readAllBytes(fs.getPath(longName))).isEqualTo(HealthFixture.content(5, 100));
        }
    }

    @Test
    void decoratedPayloadsInAnEntryFolderWithoutAPayloadAreRepairedAsTheListingResolvesThem() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        String longName = "/docs/" + "long name ".repeat(20) + ".txt";
        Path entry = v.entry(longName);
        // A move cut short, or a sync adding a copy to an entry renamed elsewhere: only the copy is left.
        Files.move(entry.resolve("contents.c9r"), entry.resolve("contents (1).c9r"));
        v.aged();

        HealthReport report = v.check();

        assertThat(report.ofKind(FindingKind.INCOMPLETE_ENTRY)).hasSize(1).allMatch(Finding::repairable);
        assertThat(report.findings()).allMatch(Finding::repairable).noneMatch(f -> f.detail().contains("left alone"));
        assertThat(v.repairAndCheck().findings()).isEmpty();
        assertThat(entry).doesNotExist();
        try (CofferFileSystem fs = v.open()) {
            assertThat(Files.readAllBytes(fs.getPath(longName + " (Conflict 1)"))).isEqualTo(HealthFixture.content(5, 100));
        }
    }

    @Test
    void contentDamageIsListedAndNeverTouched() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path big = v.entry("/big.bin");
        Path bottom = v.entry("/docs/deep/deeper/bottom.bin");
        Path tiny = v.entry("/docs/deep/tiny.txt");
        flip(big, 48 + 3 * 4128 + 100); // unit 3
        flip(bottom, 48 + 100); // unit 0, so that the cut end below is no interrupted write (InterruptedWriteTest)
        try (FileChannel ch = FileChannel.open(bottom, StandardOpenOption.WRITE)) {
            ch.truncate(48 + 4128 + 20); // inside unit 1: an impossible length
        }
        flip(tiny, 10); // the header
        Map<String, String> before = Snapshots.of(v.vault);
        HealthReport report = v.check();
        assertThat(report.findings()).extracting(Finding::kind, Finding::cleartextPath).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(FindingKind.DAMAGED_CONTENT, "/big.bin"),
                org.assertj.core.groups.Tuple.tuple(FindingKind.IMPOSSIBLE_SIZE, "/docs/deep/deeper/bottom.bin"),
                org.assertj.core.groups.Tuple.tuple(FindingKind.DAMAGED_HEADER, "/docs/deep/tiny.txt"));
        assertThat(report.ofKind(FindingKind.DAMAGED_CONTENT).get(0).detail()).contains("1 of 74 units").contains("12288..16383");
        assertThat(report.findings()).noneMatch(Finding::repairable);
        assertThat(v.repairAndCheck().findings()).hasSize(3);
        assertThat(Snapshots.of(v.vault)).isEqualTo(before);
    }

    @Test
    void aFileHoldingOnlyTheHeaderOfAnInterruptedFirstWriteIsEmptied() throws IOException {
        // A kill between writing a new file's header and its first unit (CrashSafetyIT found it, seed 77).
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path report = v.entry("/docs/report.txt");
        Path big = v.entry("/big.bin");
        try (FileChannel ch = FileChannel.open(report, StandardOpenOption.WRITE)) {
            ch.truncate(48);
        }
        try (FileChannel ch = FileChannel.open(big, StandardOpenOption.WRITE)) {
            ch.truncate(48);
        }
        flip(big, 5); // a header that does not authenticate: not ours to empty
        v.aged();
        HealthReport report1 = v.check();
        assertThat(report1.findings()).extracting(Finding::kind, Finding::cleartextPath, Finding::repairable).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(FindingKind.IMPOSSIBLE_SIZE, "/docs/report.txt", true),
                org.assertj.core.groups.Tuple.tuple(FindingKind.IMPOSSIBLE_SIZE, "/big.bin", false));
        assertThat(v.repairAndCheck().findings()).extracting(Finding::cleartextPath).containsExactly("/big.bin");
        assertThat(report).isEmptyFile();
        try (CofferFileSystem fs = v.open()) {
            assertThat(Files.readAllBytes(fs.getPath("/docs/report.txt"))).isEmpty();
        }
    }

    @Test
    void inSivXtsOnlyTheHeaderAndTheLengthAreChecked() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTS);
        flip(v.entry("/big.bin"), 48 + 5000); // a block: undetectable in SIV_XTS (spec 1)
        flip(v.entry("/docs/report.txt"), 3); // the header
        try (FileChannel ch = FileChannel.open(v.entry("/docs/deep/tiny.txt"), StandardOpenOption.WRITE)) {
            ch.truncate(40);
        }
        assertThat(v.check().findings()).extracting(Finding::kind, Finding::cleartextPath).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(FindingKind.DAMAGED_HEADER, "/docs/report.txt"),
                org.assertj.core.groups.Tuple.tuple(FindingKind.IMPOSSIBLE_SIZE, "/docs/deep/tiny.txt"));
    }

    @Test
    void temporaryFilesAreRemovedOnlyWhenOlderThanADay() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path fresh = Files.write(v.storage("/docs").resolve(".coffer-tmp-00000000000000aa"), new byte[] {1});
        Path stale = Files.write(v.storage("/").resolve(".coffer-tmp-00000000000000bb"), new byte[] {2});
        twoDaysOld(stale);
        HealthReport report = v.check();
        assertThat(report.ofKind(FindingKind.TEMPORARY_FILE)).hasSize(2);
        assertThat(report.healthy()).isTrue();
        assertThat(v.repairAndCheck().findings()).extracting(Finding::ciphertextPath).containsExactly(v.relative(fresh));
        assertThat(stale).doesNotExist();
    }

    @Test
    void anEntrySetAsideByAnInterruptedMoveGoesBackUnderItsNameIfFreeElseAsACopyAndIsNeverDeleted() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        try (CofferFileSystem fs = v.open()) {
            Files.createSymbolicLink(fs.getPath("/kept link"), fs.getPath("target one"));
            Files.createSymbolicLink(fs.getPath("/replaced link"), fs.getPath("target two"));
            Files.createDirectory(fs.getPath("/kept folder"));
        }
        Path folderStorage = v.storage("/kept folder");
        Path keptFolder = v.entry("/kept folder");
        Path holder3 = Files.createDirectory(v.storage("/").resolve(".coffer-tmp-00000000000000c4"));
        Files.move(keptFolder, holder3.resolve(keptFolder.getFileName())); // its storage is no orphan to remove
        HealthFixture.age(folderStorage);
        // As crashes leave them: "kept link" set aside by a move that then did not happen; a copy of
        // "replaced link"'s entry set aside, its name taken (whether by the move cannot be told).
        Path kept = v.entry("/kept link");
        Path replaced = v.entry("/replaced link");
        Path holder1 = Files.createDirectory(v.storage("/").resolve(".coffer-tmp-00000000000000c1"));
        Files.move(kept, holder1.resolve(kept.getFileName()));
        Path holder2 = Files.createDirectory(v.storage("/").resolve(".coffer-tmp-00000000000000c2"));
        Path copy = Files.createDirectory(holder2.resolve(replaced.getFileName()));
        Files.copy(replaced.resolve("symlink.c9r"), copy.resolve("symlink.c9r"));
        Path young = Files.createDirectory(v.storage("/").resolve(".coffer-tmp-00000000000000c3"));
        Files.createDirectory(young.resolve("CCCCCCCCCCCCCCCCCCCCCCCC.c9r")); // within its day: a move may be under way
        for (Path holder : List.of(holder1, holder2, holder3)) {
            twoDaysOld(holder);
        }
        HealthReport before = v.check();
        assertThat(before.ofKind(FindingKind.TEMPORARY_FILE)).hasSize(4);
        assertThat(before.findings()).filteredOn(f -> f.ciphertextPath().equals(v.relative(holder1))).singleElement()
                .satisfies(f -> assertThat(f.severity()).isEqualTo(Severity.WARNING)); // hidden until repaired
        assertThat(before.findings()).filteredOn(f -> f.ciphertextPath().equals(v.relative(holder2))).singleElement()
                .satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.WARNING); // hidden content, its name taken
                    assertThat(f.repairable()).isTrue();
                    assertThat(f.detail()).contains("(set aside by Coffer)");
                });
        assertThat(before.ofKind(FindingKind.ORPHAN_FOLDER)).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.INFO);
            assertThat(f.detail()).contains("interrupted move set aside").contains("left alone");
        });

        assertThat(v.repairAndCheck().findings()).extracting(Finding::ciphertextPath).containsExactly(v.relative(young));
        assertThat(holder1).doesNotExist();
        assertThat(holder2).doesNotExist();
        assertThat(holder3).doesNotExist();
        try (CofferFileSystem fs = v.open()) {
            assertThat(Files.readSymbolicLink(fs.getPath("/kept link")).toString()).isEqualTo("target one");
            assertThat(Files.readSymbolicLink(fs.getPath("/replaced link")).toString()).isEqualTo("target two");
            // its name is taken: back as a copy beside the entry that took it, not deleted
            assertThat(Files.readSymbolicLink(fs.getPath("/replaced link (set aside by Coffer)")).toString()).isEqualTo("target two");
            Files.writeString(fs.getPath("/kept folder/inside.txt"), "its storage is still there");
            assertThat(Files.readString(fs.getPath("/kept folder/inside.txt"))).isEqualTo("its storage is still there");
        }
    }

    /**
     * A name taken in another Unicode spelling (the set-aside entry stored in NFD, the folder's entry
     * in NFC: another ciphertext name, one cleartext name once listed) and a long name both go back as
     * copies; an entry whose name does not decrypt and whose slot is taken has nowhere to go and stays.
     */
    @Test
    void setAsideEntriesWhoseNamesAreTakenInAnotherSpellingOrLongGoBackAsCopiesAndOnesWithoutANameStay() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        String longName = "l".repeat(200) + ".txt"; // shortened: its encrypted name is over the vault's 220
        try (CofferFileSystem fs = v.open()) {
            Files.writeString(fs.getPath("/caf\u00e9.txt"), "the new caf\u00e9");
            Files.writeString(fs.getPath("/old caf\u00e9"), "the old caf\u00e9");
            Files.writeString(fs.getPath("/" + longName), "the long one");
        }
        Path root = v.storage("/");
        Path holder = Files.createDirectory(root.resolve(".coffer-tmp-00000000000000f1"));
        Files.move(v.entry("/old caf\u00e9"), holder.resolve(v.encryptedName("/", "cafe\u0301.txt")));
        Path longEntry = v.entry("/" + longName);
        Path longCopy = Files.createDirectory(holder.resolve(longEntry.getFileName()));
        for (String inner : List.of("name.c9s", "contents.c9r")) {
            Files.copy(longEntry.resolve(inner), longCopy.resolve(inner));
        }
        String foreign = "QUFBQUFBQUFBQUFBQUFBQUFBQUFB.c9r"; // Base64url, but no name under this key
        Files.write(root.resolve(foreign), new byte[] {1});
        Path nameless = Files.createDirectory(root.resolve(".coffer-tmp-00000000000000f2"));
        Files.write(nameless.resolve(foreign), new byte[] {2});
        for (Path p : List.of(holder, nameless)) {
            twoDaysOld(p);
        }
        HealthReport before = v.check();
        assertThat(before.findings()).filteredOn(f -> f.ciphertextPath().equals(v.relative(holder))).singleElement()
                .satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.WARNING);
                    assertThat(f.repairable()).isTrue();
                });
        assertThat(before.findings()).filteredOn(f -> f.ciphertextPath().equals(v.relative(nameless))).singleElement()
                .satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.WARNING);
                    assertThat(f.repairable()).isFalse();
                });

        v.repairAndCheck();

        assertThat(holder).doesNotExist();
        assertThat(nameless.resolve(foreign)).hasBinaryContent(new byte[] {2}); // left alone, never deleted
        assertThat(root.resolve(foreign)).hasBinaryContent(new byte[] {1});
        try (CofferFileSystem fs = v.open()) {
            assertThat(Files.readString(fs.getPath("/caf\u00e9.txt"))).isEqualTo("the new caf\u00e9");
            assertThat(Files.readString(fs.getPath("/caf\u00e9 (set aside by Coffer).txt"))).isEqualTo("the old caf\u00e9");
            assertThat(Files.readString(fs.getPath("/" + longName))).isEqualTo("the long one");
            assertThat(Files.readString(fs.getPath("/" + "l".repeat(200) + " (set aside by Coffer).txt"))).isEqualTo("the long one");
            try (var listed = Files.list(fs.getPath("/"))) {
                assertThat(listed.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("caf")))
                        .containsExactlyInAnyOrder("caf\u00e9.txt", "caf\u00e9 (set aside by Coffer).txt"); // not listed twice
            }
        }
    }

    /**
     * A folder replaced by a move that was done and stopped after deleting the replaced (empty) folder's
     * storage: the set-aside pointer leads nowhere and its name is taken, so nothing is left to keep.
     * Coming back as an empty copy would only make a dangling pointer.
     */
    @Test
    void aReplacedFolderWhosePointerLeadsNowhereAndWhoseNameIsTakenIsRemovedNotBroughtBack() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        try (CofferFileSystem fs = v.open()) {
            Files.createDirectory(fs.getPath("/taken"));
            Files.writeString(fs.getPath("/taken/inside.txt"), "the folder that took the name");
            Files.createDirectory(fs.getPath("/replaced"));
        }
        Path replacedStorage = v.storage("/replaced");
        Files.delete(replacedStorage.resolve("dirid.c9r"));
        Files.delete(replacedStorage);
        Path holder = Files.createDirectory(v.storage("/").resolve(".coffer-tmp-00000000000000f3"));
        Files.move(v.entry("/replaced"), holder.resolve(v.entry("/taken").getFileName()));
        twoDaysOld(holder);

        HealthReport before = v.check();
        assertThat(before.findings()).filteredOn(f -> f.ciphertextPath().equals(v.relative(holder))).singleElement()
                .satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.INFO);
                    assertThat(f.detail()).contains("no content");
                });

        assertThat(v.repairAndCheck().findings()).isEmpty(); // no dangling pointer made
        assertThat(holder).doesNotExist();
        try (CofferFileSystem fs = v.open()) {
            assertThat(Files.readString(fs.getPath("/taken/inside.txt"))).isEqualTo("the folder that took the name");
            try (Stream<Path> listed = Files.list(fs.getPath("/"))) {
                assertThat(listed.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains("set aside"));
            }
        }
    }

    /**
     * A set-aside folder entry with a damaged pointer whose name is taken goes back as a copy (its
     * storage cannot be told missing), and a dot-file that is not Coffer's keeps its holder, reported as
     * a note, never deleted.
     */
    @Test
    void aDamagedSetAsidePointerGoesBackAsACopyAndAForeignFileKeepsItsHolder() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        try (CofferFileSystem fs = v.open()) {
            Files.createDirectory(fs.getPath("/taken"));
            Files.writeString(fs.getPath("/free.txt"), "free");
        }
        Path holder = Files.createDirectory(v.storage("/").resolve(".coffer-tmp-00000000000000f5"));
        Path damaged = Files.createDirectory(holder.resolve(v.entry("/taken").getFileName()));
        Files.write(damaged.resolve("dir.c9r"), new byte[] {'a', 'b', 'c'}); // not a directory ID
        Path free = v.entry("/free.txt");
        Files.move(free, holder.resolve(free.getFileName()));
        Files.write(holder.resolve(".DS_Store"), new byte[] {9});
        twoDaysOld(holder);

        assertThat(v.check().findings()).filteredOn(f -> f.ciphertextPath().equals(v.relative(holder))).singleElement()
                .satisfies(f -> assertThat(f.repairable()).isTrue());

        v.repairAndCheck();

        assertThat(holder.resolve(".DS_Store")).hasBinaryContent(new byte[] {9});
        twoDaysOld(holder); // the put-back touched it
        assertThat(v.check().findings()).filteredOn(f -> f.ciphertextPath().equals(v.relative(holder))).singleElement()
                .satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.INFO);
                    assertThat(f.repairable()).isFalse();
                    assertThat(f.detail()).contains("not Coffer's");
                });
        try (CofferFileSystem fs = v.open()) {
            assertThat(Files.readString(fs.getPath("/free.txt"))).isEqualTo("free");
        }
        Path copy = v.entry("/taken (set aside by Coffer)");
        assertThat(copy.resolve("dir.c9r")).hasBinaryContent(new byte[] {'a', 'b', 'c'}); // back in view, as damaged as it was
    }

    /** What a sync client may leave in a set-aside folder (renamed copies, a file named like a long-name folder) stays, a warning. */
    @Test
    void itemsInASetAsideFolderThatAreNotCoffersStayAndAreAWarningNotACrash() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path holder = Files.createDirectory(v.storage("/").resolve(".coffer-tmp-00000000000000f6"));
        Path renamed = Files.write(holder.resolve("QUJDREVGR0hJSktMTU5PUFFSU1RV.c9r.sync-conflict-20261122"), new byte[] {5});
        Path notAFolder = Files.write(holder.resolve("ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ.c9s"), new byte[] {6});
        twoDaysOld(holder);

        HealthReport report = v.check();

        assertThat(report.ofKind(FindingKind.UNREADABLE)).isEmpty();
        assertThat(report.findings()).filteredOn(f -> f.ciphertextPath().equals(v.relative(holder))).singleElement()
                .satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.WARNING); // perhaps the only copy of an entry
                    assertThat(f.repairable()).isFalse();
                });
        v.repairAndCheck();
        assertThat(renamed).hasBinaryContent(new byte[] {5});
        assertThat(notAFolder).hasBinaryContent(new byte[] {6});
    }

    /** An incomplete entry (no payload it can be told by) whose name is taken in NFC goes back under its own ciphertext name. */
    @Test
    void anIncompleteSetAsideEntryGoesBackUnderItsOwnCiphertextNameWhereTheCheckCanSeeIt() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        try (CofferFileSystem fs = v.open()) {
            Files.writeString(fs.getPath("/caf\u00e9"), "the NFC one");
        }
        Path holder = Files.createDirectory(v.storage("/").resolve(".coffer-tmp-00000000000000f4"));
        Path incomplete = Files.createDirectory(holder.resolve(v.encryptedName("/", "cafe\u0301")));
        Files.write(incomplete.resolve("unknown.bin"), new byte[] {7}); // content, but no payload
        twoDaysOld(holder);

        assertThat(v.check().findings()).filteredOn(f -> f.ciphertextPath().equals(v.relative(holder))).singleElement()
                .satisfies(f -> assertThat(f.repairable()).isTrue());

        v.repairAndCheck();

        assertThat(holder).doesNotExist();
        assertThat(v.storage("/").resolve(incomplete.getFileName()).resolve("unknown.bin")).hasBinaryContent(new byte[] {7});
    }

    @Test
    void aMoveInterruptedAfterBuildingItsEntryIsUndoneByOneRepairAndLeftoversWithoutContentGo() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        try (CofferFileSystem fs = v.open()) {
            Files.writeString(fs.getPath("/kept.txt"), "kept content");
        }
        // A link moved over kept.txt: the file set aside, the link's entry folder built under the name, then a crash.
        Path kept = v.entry("/kept.txt");
        Path holder = Files.createDirectory(v.storage("/").resolve(".coffer-tmp-00000000000000e1"));
        Files.move(kept, holder.resolve(kept.getFileName()));
        Path halfBuilt = Files.createDirectory(kept);
        // What a move's cleanup can leave: an empty holder, and one holding a name file only.
        Path empty = Files.createDirectory(v.storage("/").resolve(".coffer-tmp-00000000000000e2"));
        Path nameOnly = Files.createDirectories(v.storage("/").resolve(".coffer-tmp-00000000000000e3")
                .resolve("DDDDDDDDDDDDDDDDDDDDDDDDDDDD.c9s"));
        Files.write(nameOnly.resolve("name.c9s"), new byte[] {1});
        for (Path p : List.of(holder, halfBuilt, empty, nameOnly.getParent())) {
            twoDaysOld(p);
        }
        HealthReport before = v.check();
        assertThat(before.findings()).filteredOn(f -> f.ciphertextPath().equals(v.relative(holder))).singleElement()
                .satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.WARNING); // the file is hidden until repaired
                    assertThat(f.repairable()).isTrue();
                    assertThat(f.detail()).contains("under its name"); // the built entry without content goes first
                });
        assertThat(before.findings()).filteredOn(f -> f.kind() == FindingKind.TEMPORARY_FILE && f.severity() == Severity.INFO)
                .extracting(Finding::ciphertextPath).containsExactlyInAnyOrder(v.relative(empty), v.relative(nameOnly.getParent()));

        assertThat(v.repairAndCheck().findings()).isEmpty();
        try (CofferFileSystem fs = v.open()) {
            assertThat(Files.readString(fs.getPath("/kept.txt"))).isEqualTo("kept content");
        }
        assertThat(holder).doesNotExist();
        assertThat(empty).doesNotExist();
        assertThat(nameOnly.getParent()).doesNotExist();
    }

    @Test
    void aFolderWithATemporaryNameCountsAsContent() throws IOException {
        Path storage = Files.createDirectory(tmp.resolve("storage"));
        Files.write(storage.resolve("dirid.c9r"), new byte[] {1});
        Files.write(storage.resolve(".coffer-tmp-00000000000000aa"), new byte[] {2});
        assertThat(OrphanSearch.holdsNothing(storage, DirectoryLister.sortedNames(storage))).isTrue();
        Files.createDirectories(storage.resolve(".coffer-tmp-00000000000000bb").resolve("CCCCCCCCCCCCCCCC.c9r"));
        assertThat(OrphanSearch.holdsNothing(storage, DirectoryLister.sortedNames(storage))).isFalse();
        Path entry = Files.createDirectory(tmp.resolve("entry.c9s"));
        Files.write(entry.resolve("name.c9s"), new byte[] {3});
        Files.write(entry.resolve(".coffer-tmp-00000000000000cc"), new byte[] {4});
        assertThat(EntryInspector.holdsNothing(entry, true)).isTrue();
        Files.createDirectory(entry.resolve(".coffer-tmp-00000000000000dd")); // not Coffer's: somebody's content
        assertThat(EntryInspector.holdsNothing(entry, true)).isFalse();
    }

    @Test
    void foreignFilesUndecryptableNamesAndRootCopiesAreListedNeverDeleted() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path root = v.storage("/");
        Files.writeString(root.resolve("desktop.ini"), "x");
        Files.writeString(root.resolve(".DS_Store"), "x");
        Files.writeString(root.resolve("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.c9r"), "x");
        Files.writeString(v.vault.resolve("d").resolve("stray.txt"), "x");
        Files.writeString(v.vault.resolve("masterkey (1).coffer"), "{}");
        Map<String, String> before = Snapshots.of(v.vault);
        HealthReport report = v.check();
        assertThat(report.findings()).extracting(Finding::kind, Finding::severity).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(FindingKind.FOREIGN_FILE, Severity.WARNING),
                org.assertj.core.groups.Tuple.tuple(FindingKind.FOREIGN_FILE, Severity.INFO),
                org.assertj.core.groups.Tuple.tuple(FindingKind.UNDECRYPTABLE_NAME, Severity.WARNING),
                org.assertj.core.groups.Tuple.tuple(FindingKind.FOREIGN_FILE, Severity.WARNING),
                org.assertj.core.groups.Tuple.tuple(FindingKind.ROOT_FILE_COPY, Severity.WARNING));
        v.repairAndCheck();
        assertThat(Snapshots.of(v.vault)).isEqualTo(before);
    }

    @Test
    void aDirectoryIdUsedTwiceIsReportedAndSeparated() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        try (CofferFileSystem fs = v.open()) {
            Files.createDirectory(fs.getPath("/twin"));
        }
        Files.copy(v.entry("/docs/deep").resolve("dir.c9r"), v.entry("/twin").resolve("dir.c9r"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        v.aged();
        HealthReport report = v.check();
        assertThat(report.ofKind(FindingKind.DUPLICATE_DIRECTORY_ID)).hasSize(1);
        assertThat(report.ofKind(FindingKind.ORPHAN_FOLDER)).hasSize(1); // twin's own storage, now unreached
        assertThat(report.ofKind(FindingKind.DUPLICATE_DIRECTORY_ID).get(0).repairable()).isTrue(); // DuplicateDirectoryIdTest
        assertThat(v.repairAndCheck().findings()).isEmpty();
    }

    @Test
    void aMissingRootStorageIsRecreated() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path root = v.storage("/");
        deleteTree(root);
        HealthReport report = v.check();
        assertThat(report.ofKind(FindingKind.DANGLING_POINTER)).extracting(Finding::cleartextPath).containsExactly("/");
        v.repairAndCheck();
        assertThat(root.resolve("dirid.c9r")).exists();
        assertThatThrownBy(() -> Files.readAllBytes(v.vault.resolve("nothing"))).isInstanceOf(IOException.class);
    }

    static void flip(Path file, long position) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
            ch.read(b, position);
            b.put(0, (byte) (b.get(0) ^ 0x01));
            b.rewind();
            ch.write(b, position);
        }
    }

    static void deleteTree(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(x);
            }
        }
    }

    /** Past the 24 hours within which a sync may still be delivering an item. */
    private static void twoDaysOld(Path p) throws IOException {
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minus(2, ChronoUnit.DAYS)));
    }
}
