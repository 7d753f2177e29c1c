package dev.coffer.core.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.content.SectorLayout;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write cut short by a crash (issue 8): Linux may cut a large {@code pwrite} at a page when the
 * writer is killed, leaving a ciphertext whose end fails authentication. Each test writes a file
 * through the vault file system, extends it, and builds from the ciphertext before and after the
 * extension what an interrupted extension leaves on disk; then: reads fail, the check reports an
 * interrupted write with the cleartext path and the readable bytes, repair keeps a copy of the
 * ciphertext in {@code repair-backups/} and cuts the file back so that every readable byte reads,
 * and a second repair (with the same report) changes nothing.
 */
class InterruptedWriteTest {
    private static final int STORED = SectorLayout.SECTOR + SectorLayout.HMAC_OVERHEAD;
    private static final String PATH = "/torn.bin";

    @TempDir
    Path tmp;

    /** A file of {@code first} bytes, extended to {@code first + more}, and the ciphertext of both versions. */
    private record Versions(HealthFixture vault, Path ciphertext, byte[] before, byte[] after, byte[] cleartext, int first) {
        long offset(long unit) {
            return SectorLayout.HEADER + unit * (long) STORED;
        }
    }

    private Versions versions(CipherCombo combo, int first, int more) throws IOException {
        HealthFixture v = HealthFixture.create(tmp, combo);
        byte[] cleartext = HealthFixture.content(9, first + more);
        try (CofferFileSystem fs = v.open()) {
            Files.write(fs.getPath(PATH), Arrays.copyOf(cleartext, first));
        }
        Path ciphertext = v.entry(PATH);
        byte[] before = Files.readAllBytes(ciphertext);
        try (CofferFileSystem fs = v.open()) {
            Files.write(fs.getPath(PATH), Arrays.copyOfRange(cleartext, first, first + more), StandardOpenOption.APPEND);
        }
        byte[] after = Files.readAllBytes(ciphertext);
        return new Versions(v, ciphertext, before, after, cleartext, first);
    }

    /** One pwrite of the new ciphertext from {@code from}, cut at {@code cut}: the old bytes stay after it. */
    private static byte[] cutWrite(byte[] before, byte[] after, long from, long cut) {
        byte[] torn = Arrays.copyOf(before, (int) Math.max(before.length, cut));
        System.arraycopy(after, (int) from, torn, (int) from, (int) (cut - from));
        return torn;
    }

    private static long pageInside(long start, long end) {
        long page = (start / 4096 + 1) * 4096;
        assertThat(page).as("a page boundary inside %d..%d", start, end).isLessThan(end);
        return page;
    }

    private static void assertReadFails(Versions f) throws IOException {
        try (CofferFileSystem fs = f.vault().open()) {
            assertThatThrownBy(() -> Files.readAllBytes(fs.getPath(PATH))).isInstanceOf(IOException.class);
        }
    }

    /** Checks, repairs twice with one report, and returns the readable bytes the file keeps. */
    private Finding checkAndRepair(Versions f, byte[] torn, long readable) throws IOException {
        Files.write(f.ciphertext(), torn);
        assertReadFails(f);
        Finding finding;
        try (UnlockedVault u = VaultAccess.unlock(f.vault().vault, HealthFixture.PASSPHRASE.toCharArray());
                VaultHealth health = VaultHealth.of(u)) {
            HealthReport report = health.check();
            assertThat(report.findings()).hasSize(1);
            finding = report.findings().get(0);
            assertThat(finding.kind()).isEqualTo(FindingKind.INTERRUPTED_WRITE);
            assertThat(finding.severity()).isEqualTo(Severity.ERROR);
            assertThat(finding.cleartextPath()).isEqualTo(PATH);
            assertThat(finding.ciphertextPath()).isEqualTo(f.vault().relative(f.ciphertext()));
            assertThat(finding.repairable()).isTrue();
            assertThat(finding.detail()).contains("a write cut short by a crash (or the end was tampered with)")
                    .contains(readable == 0 ? "no cleartext byte is readable" : "cleartext bytes 0.." + (readable - 1) + " are readable");
            assertThat(report.repairs()).hasSize(1);
            assertThat(report.repairs().get(0).description()).contains("repair-backups/" + finding.ciphertextPath());

            VaultHealth.RepairOutcome outcome = health.repair(report);
            assertThat(outcome.failures()).isEmpty();
            assertThat(outcome.done()).hasSize(1);
            byte[] repaired = Files.readAllBytes(f.ciphertext());
            VaultHealth.RepairOutcome again = health.repair(report);
            assertThat(again.failures()).as("a second repair with the same report").isEmpty();
            assertThat(Files.readAllBytes(f.ciphertext())).as("a second repair changes nothing").isEqualTo(repaired);
            assertThat(health.check().findings()).as("after the repair").isEmpty();
        }
        assertThat(backups(f)).singleElement().satisfies(b -> assertThat(Files.readAllBytes(b)).as("the kept copy").isEqualTo(torn));
        assertThat(backups(f).get(0).getFileName().toString()).matches(".*\\.c9r\\.[0-9a-f]{8}\\.bkup");
        try (CofferFileSystem fs = f.vault().open()) {
            assertThat(Files.readAllBytes(fs.getPath(PATH))).isEqualTo(Arrays.copyOf(f.cleartext(), (int) readable));
        }
        return finding;
    }

    private static List<Path> backups(Versions f) throws IOException {
        try (Stream<Path> s = Files.walk(f.vault().vault.resolve(RepairBackups.FOLDER))) {
            return s.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void aCutAtAPageInsideTheLastUnitKeepsEveryWholeUnit() throws IOException {
        Versions f = versions(CipherCombo.SIV_XTSHMAC, 3 * 4096 + 1000, 5 * 4096 + 3000);
        // the extension as one write from the old last unit on, cut at the page inside its new last unit (unit 8)
        long cut = pageInside(f.offset(8), f.after().length);
        byte[] torn = cutWrite(f.before(), f.after(), f.offset(3), cut);
        checkAndRepair(f, torn, 8 * 4096);
    }

    @Test
    void aCutInsideTheRewrittenOldLastUnitKeepsTheUnitsBeforeIt() throws IOException {
        Versions f = versions(CipherCombo.SIV_XTSHMAC, 3 * 4096 + 1000, 5 * 4096 + 3000);
        long cut = pageInside(f.offset(3), f.offset(4));
        byte[] torn = cutWrite(f.before(), f.after(), f.offset(3), cut);
        checkAndRepair(f, torn, 3 * 4096);
    }

    @Test
    void aCutExactlyAtAUnitBoundaryKeepsEveryUnitAndRetagsTheLast() throws IOException {
        Versions f = versions(CipherCombo.SIV_XTSHMAC, 3 * 4096 + 1000, 5 * 4096 + 3000);
        byte[] torn = cutWrite(f.before(), f.after(), f.offset(3), f.offset(6));
        checkAndRepair(f, torn, 6 * 4096);
    }

    @Test
    void aLengthTheModeDoesNotAllowIsAnInterruptedWriteToo() throws IOException {
        Versions f = versions(CipherCombo.SIV_XTSHMAC, 3 * 4096 + 1000, 5 * 4096 + 3000);
        byte[] torn = cutWrite(f.before(), f.after(), f.offset(3), f.offset(7) + 20); // 20 bytes of unit 7: no unit is that short
        checkAndRepair(f, torn, 7 * 4096);
    }

    @Test
    void theNewUnitsWrittenBeforeTheOldLastUnitIsRewrittenLeaveTheOldFileIntact() throws IOException {
        // The core writes an extension's new units first and re-encrypts the old last unit after them.
        Versions f = versions(CipherCombo.SIV_XTSHMAC, 3 * 4096 + 1000, 5 * 4096 + 3000);
        long cut = pageInside(f.offset(6), f.offset(7));
        byte[] torn = Arrays.copyOf(f.before(), (int) cut);
        System.arraycopy(f.after(), (int) f.offset(4), torn, (int) f.offset(4), (int) (cut - f.offset(4)));
        Finding finding = checkAndRepair(f, torn, f.first());
        assertThat(finding.detail()).contains("the file as it was before that write is intact");
        assertThat(Files.readAllBytes(f.ciphertext())).as("exactly the old ciphertext").isEqualTo(f.before());
    }

    @Test
    void aFullOldLastUnitNotYetRetaggedCountsAsAMiddleUnit() throws IOException {
        // The old last unit was full: the extension writes the new units, then re-tags it as a middle unit.
        // Spec 5.3 lets a middle unit carry either flag, so with every new unit written the file is sound.
        Versions f = versions(CipherCombo.SIV_XTSHMAC, 3 * 4096, 2 * 4096 + 3000);
        byte[] complete = Arrays.copyOf(f.before(), f.after().length);
        System.arraycopy(f.after(), (int) f.offset(3), complete, (int) f.offset(3), (int) (f.after().length - f.offset(3)));
        Files.write(f.ciphertext(), complete);
        assertThat(f.vault().check().findings()).isEmpty();
        try (CofferFileSystem fs = f.vault().open()) {
            assertThat(Files.readAllBytes(fs.getPath(PATH))).isEqualTo(f.cleartext());
        }
        // Cut at a page inside new unit 4: units 0 to 3 stay.
        byte[] torn = Arrays.copyOf(complete, (int) pageInside(f.offset(4), f.offset(5)));
        checkAndRepair(f, torn, 4 * 4096);
    }

    @Test
    void aFirstWriteCutInsideItsFirstUnitKeepsNothingButAnEmptyFile() throws IOException {
        Versions f = versions(CipherCombo.SIV_XTSHMAC, 0, 3 * 4096);
        checkAndRepair(f, Arrays.copyOf(f.after(), 4096), 0);
        assertThat(Files.size(f.ciphertext())).isZero();
    }

    @Test
    void aDamagedMiddleUnitStaysDamagedContentAndIsNeverTouched() throws IOException {
        Versions f = versions(CipherCombo.SIV_XTSHMAC, 3 * 4096 + 1000, 5 * 4096 + 3000);
        byte[] damaged = f.after().clone();
        damaged[(int) f.offset(4) + 100] ^= 1;
        Files.write(f.ciphertext(), damaged);
        HealthReport report = f.vault().check();
        assertThat(report.findings()).singleElement().satisfies(x -> {
            assertThat(x.kind()).isEqualTo(FindingKind.DAMAGED_CONTENT);
            assertThat(x.repairable()).isFalse();
        });
        assertThat(report.repairs()).isEmpty();
    }

    @Test
    void aTornEndAfterADamagedMiddleUnitIsNoInterruptedWrite() throws IOException {
        Versions f = versions(CipherCombo.SIV_XTSHMAC, 3 * 4096 + 1000, 5 * 4096 + 3000);
        byte[] damaged = Arrays.copyOf(f.after(), (int) pageInside(f.offset(8), f.after().length));
        damaged[(int) f.offset(5) + 100] ^= 1; // unit 6 and 7 after it authenticate
        Files.write(f.ciphertext(), damaged);
        HealthReport report = f.vault().check();
        assertThat(report.findings()).singleElement().satisfies(x -> assertThat(x.kind()).isEqualTo(FindingKind.DAMAGED_CONTENT));
        assertThat(report.repairs()).isEmpty();
    }

    @Test
    void aFileChangedBetweenCheckAndRepairIsLeftAsItIs() throws IOException {
        Versions f = versions(CipherCombo.SIV_XTSHMAC, 3 * 4096 + 1000, 5 * 4096 + 3000);
        byte[] torn = cutWrite(f.before(), f.after(), f.offset(3), pageInside(f.offset(8), f.after().length));
        Files.write(f.ciphertext(), torn);
        try (UnlockedVault u = VaultAccess.unlock(f.vault().vault, HealthFixture.PASSPHRASE.toCharArray());
                VaultHealth health = VaultHealth.of(u)) {
            HealthReport report = health.check();
            byte[] other = cutWrite(f.before(), f.after(), f.offset(3), f.offset(6)); // a sync delivered another torn state
            Files.write(f.ciphertext(), other);
            VaultHealth.RepairOutcome outcome = health.repair(report);
            assertThat(outcome.failures()).singleElement().asString().contains("changed since the check");
            assertThat(Files.readAllBytes(f.ciphertext())).isEqualTo(other);
        }
    }

    @Test
    void inSivXtsACutEndCannotBeToldFromContentSoNothingIsReportedOrChanged() throws IOException {
        // SIV_XTS units carry no tag (spec 1): the cut file reads, its last unit garbled; only impossible lengths are findings.
        Versions f = versions(CipherCombo.SIV_XTS, 3 * 4096 + 1000, 5 * 4096 + 3000);
        long cut = 8 * 4096; // a page inside unit 7
        byte[] torn = Arrays.copyOf(f.after(), (int) cut);
        Files.write(f.ciphertext(), torn);
        try (CofferFileSystem fs = f.vault().open()) {
            assertThat(Files.readAllBytes(fs.getPath(PATH))).hasSize((int) cut - SectorLayout.HEADER);
        }
        assertThat(f.vault().repairAndCheck().findings()).isEmpty();
        assertThat(Files.readAllBytes(f.ciphertext())).isEqualTo(torn);
        assertThat(f.vault().vault.resolve(RepairBackups.FOLDER)).doesNotExist();
    }

    @Test
    void aVaultWithATornFileOpensAndItsOtherFilesRead() throws IOException {
        Versions f = versions(CipherCombo.SIV_XTSHMAC, 3 * 4096 + 1000, 5 * 4096 + 3000);
        Files.write(f.ciphertext(), cutWrite(f.before(), f.after(), f.offset(3), f.offset(6)));
        try (CofferFileSystem fs = f.vault().open(); FileChannel ch = FileChannel.open(fs.getPath(PATH), StandardOpenOption.READ)) {
            assertThat(ch.size()).isEqualTo(6 * 4096);
            assertThat(Files.readAllBytes(fs.getPath("/docs/report.txt"))).isEqualTo(HealthFixture.content(1, 10_000));
        }
    }
}
