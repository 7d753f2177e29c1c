package dev.coffer.core.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.util.ExclusiveFileLock;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.VaultAccess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code .coffer-tmp-*} files that AtomicFiles left in the vault root: reported, and removed only when safe. */
class RootTemporaryFilesTest {
    @TempDir
    Path tmp;

    @Test
    void staleRootTemporaryFilesAreReportedAndRemovedButAMasterkeyNoKeptFileEqualsIsKept() throws IOException {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path masterkey = v.vault.resolve("masterkey.coffer");
        byte[] before = Files.readAllBytes(masterkey);
        // A passphrase change whose rename a crash undid: the new file is only in its temporary file.
        VaultAccess.changePassphrase(v.vault, HealthFixture.PASSPHRASE.toCharArray(), "new passphrase".toCharArray());
        byte[] changed = Files.readAllBytes(masterkey);
        Files.write(masterkey, before);
        Path onlyCopy = twoDaysOld(Files.write(v.vault.resolve(".coffer-tmp-00000000000000a1"), changed));
        Path halfWritten = twoDaysOld(Files.write(v.vault.resolve(".coffer-tmp-00000000000000a2"), Arrays.copyOf(changed, 40)));
        Path likeTheBackup = twoDaysOld(Files.write(v.vault.resolve(".coffer-tmp-00000000000000a3"), before));
        Path young = Files.write(v.vault.resolve(".coffer-tmp-00000000000000a4"), new byte[0]);

        HealthReport report = v.check();

        assertThat(report.ofKind(FindingKind.TEMPORARY_FILE)).extracting(Finding::ciphertextPath, Finding::severity, Finding::repairable)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(v.relative(onlyCopy), Severity.WARNING, false),
                        org.assertj.core.groups.Tuple.tuple(v.relative(halfWritten), Severity.INFO, true),
                        org.assertj.core.groups.Tuple.tuple(v.relative(likeTheBackup), Severity.INFO, true),
                        org.assertj.core.groups.Tuple.tuple(v.relative(young), Severity.INFO, false));
        assertThat(report.ofKind(FindingKind.TEMPORARY_FILE)).filteredOn(f -> f.ciphertextPath().equals(v.relative(onlyCopy)))
                .singleElement().satisfies(f -> assertThat(f.detail()).contains("never removed"));

        HealthReport after = v.repairAndCheck();

        assertThat(halfWritten).doesNotExist();
        assertThat(likeTheBackup).doesNotExist();
        assertThat(onlyCopy).hasBinaryContent(changed);
        assertThat(young).exists();
        assertThat(after.ofKind(FindingKind.TEMPORARY_FILE)).extracting(Finding::ciphertextPath)
                .containsExactlyInAnyOrder(v.relative(onlyCopy), v.relative(young));
    }

    @Test
    @SuppressWarnings("try") // the lock is held, not used
    void aRootTemporaryFileIsRemovedOnlyOnceAPassphraseChangeHoldingTheMasterkeyLockIsDone() throws Exception {
        HealthFixture v = HealthFixture.create(tmp, CipherCombo.SIV_XTSHMAC);
        Path stale = twoDaysOld(Files.write(v.vault.resolve(".coffer-tmp-00000000000000b1"), new byte[] {1, 2, 3}));
        HealthReport report = v.check();
        assertThat(report.ofKind(FindingKind.TEMPORARY_FILE)).singleElement().satisfies(f -> assertThat(f.repairable()).isTrue());

        CompletableFuture<HealthReport> repair;
        try (ExclusiveFileLock change = ExclusiveFileLock.on(v.vault.resolve("masterkey.coffer"))) {
            repair = CompletableFuture.supplyAsync(() -> {
                try {
                    return v.repairAndCheck();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            Thread.sleep(500);
            assertThat(stale).exists();
            assertThat(repair).isNotDone();
        }
        assertThat(repair.get(30, TimeUnit.SECONDS).ofKind(FindingKind.TEMPORARY_FILE)).isEmpty();
        assertThat(stale).doesNotExist();
        try (Stream<Path> root = Files.list(v.vault)) {
            assertThat(root.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".coffer-tmp-"));
        }
    }

    private static Path twoDaysOld(Path p) throws IOException {
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minus(2, ChronoUnit.DAYS)));
        return p;
    }
}
