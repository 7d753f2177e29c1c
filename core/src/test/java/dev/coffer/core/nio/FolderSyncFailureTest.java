package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.health.VaultHealth;
import dev.coffer.core.util.AtomicFiles;
import dev.coffer.core.util.NotDurableException;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder's fsync that fails (EIO from a failing disk, or a full one) is reported, not swallowed:
 * the change is made but may not survive a crash, so nothing that is safe only after it (deleting
 * the entry a move replaced) is done, and a move whose first step cannot be made durable is undone.
 */
class FolderSyncFailureTest {
    private static final String PASSPHRASE = "sync failure";

    @TempDir
    Path tmp;

    private final RecordingFileSystem rec = new RecordingFileSystem();

    private CofferFileSystem vault() throws IOException {
        return CofferFileSystems.create(rec.wrap(tmp.resolve("vault")), PASSPHRASE.toCharArray(), VaultOnTempDirContractTest.FAST);
    }

    @Test
    void aMoveThatReplacedAFileButCannotBeMadeDurableKeepsTheFileSetAsideForRepair() throws IOException {
        try (CofferFileSystem fs = vault()) {
            Path file = fileAndLink(fs, "the replaced file's content");
            Path link = fs.getPath("/link");
            // The file is set aside (move 1), then the link's payload moves into its new entry (move 2).
            rec.failFolderSyncsFromMove(2);

            assertThatThrownBy(() -> Files.move(link, file, StandardCopyOption.REPLACE_EXISTING))
                    .isInstanceOf(NotDurableException.class).hasMessageContaining("Input/output error");

            rec.folderSyncFails = folder -> false;
            assertThat(Files.isSymbolicLink(file)).as("the move happened").isTrue();
            assertThat(Files.exists(link, LinkOption.NOFOLLOW_LINKS)).isFalse();
            assertThat(setAside()).as("the replaced file is kept, not deleted").hasSize(1);
        }
        for (Path holder : setAside()) {
            Files.setLastModifiedTime(holder, FileTime.from(Instant.now().minus(2, ChronoUnit.DAYS)));
        }
        try (UnlockedVault u = VaultAccess.unlock(tmp.resolve("vault"), PASSPHRASE.toCharArray());
                VaultHealth health = VaultHealth.of(u)) {
            assertThat(health.repair(health.check()).failures()).isEmpty();
        }
        try (CofferFileSystem fs = CofferFileSystems.open(tmp.resolve("vault"), PASSPHRASE.toCharArray(), false)) {
            assertThat(Files.readSymbolicLink(fs.getPath("/report.txt")).toString()).isEqualTo("elsewhere");
            assertThat(Files.readString(fs.getPath("/report (set aside by Coffer).txt"))).isEqualTo("the replaced file's content");
        }
        assertThat(setAside()).isEmpty();
    }

    @Test
    void aMoveWhoseSettingAsideCannotBeMadeDurableIsUndone() throws IOException {
        try (CofferFileSystem fs = vault()) {
            Path file = fileAndLink(fs, "the file's content");
            Path link = fs.getPath("/link");
            rec.failFolderSyncsFromMove(0);

            assertThatThrownBy(() -> Files.move(link, file, StandardCopyOption.REPLACE_EXISTING))
                    .isInstanceOf(NotDurableException.class);

            rec.folderSyncFails = folder -> false;
            assertThat(Files.readString(file)).isEqualTo("the file's content");
            assertThat(Files.readSymbolicLink(link).toString()).isEqualTo("elsewhere");
            assertThat(setAside()).isEmpty();
        }
    }

    @Test
    void aFolderIsNotCreatedUnlessItsStorageIsDurableAndIsReportedIfItsPointerIsNot() throws IOException {
        try (CofferFileSystem fs = vault()) {
            Path folder = fs.getPath("/new folder");
            rec.failFolderSyncsFromMove(0);

            assertThatThrownBy(() -> Files.createDirectory(folder)).isInstanceOf(NotDurableException.class);
            assertThat(Files.exists(folder)).as("no pointer to a storage folder that may be lost").isFalse();

            // Its directory ID file is written (move 1), then its pointer (move 2): only that one's fsync fails.
            rec.failFolderSyncsFromMove(2);
            assertThatThrownBy(() -> Files.createDirectory(folder)).isInstanceOf(NotDurableException.class);

            rec.folderSyncFails = f -> false;
            assertThat(Files.isDirectory(folder)).as("made, though not known to be durable").isTrue();
            Files.writeString(folder.resolve("inside.txt"), "made");
            assertThat(Files.readString(folder.resolve("inside.txt"))).isEqualTo("made");
        }
    }

    @Test
    void aStoreWithoutFolderFsyncIsUsedAsBefore() throws IOException {
        rec.folderSyncError = "Invalid argument"; // EINVAL: the store has no folder fsync at all
        rec.failFolderSyncsFromMove(0);
        try (CofferFileSystem fs = vault()) {
            Path file = fs.getPath("/report.txt");
            Path link = fs.getPath("/link");
            Files.writeString(file, "replaced");
            Files.createDirectory(fs.getPath("/folder"));
            Files.createSymbolicLink(link, fs.getPath("elsewhere"));

            Files.move(link, file, StandardCopyOption.REPLACE_EXISTING);

            assertThat(Files.readSymbolicLink(file).toString()).isEqualTo("elsewhere");
            assertThat(Files.isDirectory(fs.getPath("/folder"))).isTrue();
            assertThat(setAside()).isEmpty();
        }
    }

    @Test
    void aPassphraseChangeSaysWhetherItHappened() throws IOException {
        vault().close();
        Path dir = rec.wrap(tmp.resolve("vault"));
        rec.failFolderSyncsFromMove(1); // the backup of masterkey.coffer is renamed into place (move 1), then fsynced
        assertThatThrownBy(() -> VaultAccess.changePassphrase(dir, PASSPHRASE.toCharArray(), "second one".toCharArray()))
                .isNotInstanceOf(NotDurableException.class).hasMessageContaining("the passphrase was not changed");
        VaultAccess.unlock(dir, PASSPHRASE.toCharArray()).close();

        rec.failFolderSyncsFromMove(2); // the backup is written again (move 1), then the new masterkey.coffer (move 2)
        assertThatThrownBy(() -> VaultAccess.changePassphrase(dir, PASSPHRASE.toCharArray(), "second one".toCharArray()))
                .isInstanceOf(NotDurableException.class);
        rec.folderSyncFails = folder -> false;
        VaultAccess.unlock(dir, "second one".toCharArray()).close();
    }

    @Test
    void aVaultWhoseCreationFailsLeavesTheFolderAsItWasForARetry() throws IOException {
        rec.failFolderSyncsFromMove(1); // masterkey.coffer is renamed into place (move 1), then its folder fsynced
        assertThatThrownBy(this::vault).isInstanceOf(NotDurableException.class);
        try (Stream<Path> left = Files.list(tmp.resolve("vault"))) {
            assertThat(left).isEmpty();
        }

        rec.folderSyncFails = folder -> false;
        try (CofferFileSystem fs = vault()) {
            Files.writeString(fs.getPath("/works.txt"), "yes");
        }
    }

    /** Writes {@code /report.txt} with {@code content} and a link {@code /link} to "elsewhere"; returns the file. */
    private static Path fileAndLink(CofferFileSystem fs, String content) throws IOException {
        Path file = Files.writeString(fs.getPath("/report.txt"), content);
        Files.createSymbolicLink(fs.getPath("/link"), fs.getPath("elsewhere"));
        return file;
    }

    /** Every {@code .coffer-tmp-} folder in the vault's storage: an entry a move set aside. */
    private List<Path> setAside() throws IOException {
        try (Stream<Path> s = Files.walk(tmp.resolve("vault").resolve("d"))) {
            return s.filter(p -> p.getFileName().toString().startsWith(AtomicFiles.TEMP_PREFIX) && Files.isDirectory(p))
                    .collect(Collectors.toList());
        }
    }
}
