package dev.coffer.app.vaults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.nio.ConflictCopy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The vault list and the state machine driven through the service, with a fake drive. */
class VaultServiceTest {
    @TempDir
    Path tmp;

    private TestVaults t;

    @BeforeEach
    void setUp() throws Exception {
        t = new TestVaults(tmp);
    }

    @Test
    void createMakesAVaultListsItLockedAndGivesFortyEightWords() throws Exception {
        CreatedVault c = t.create("Taxes");
        assertThat(tmp.resolve("Taxes/vault.coffer")).isRegularFile();
        assertThat(c.recoveryWords()).hasSize(48);
        assertThat(c.vault().state()).isEqualTo(VaultState.LOCKED);
        assertThat(c.vault().settings().name()).isEqualTo("Taxes");
        assertThat(t.service.vaults()).containsExactly(c.vault());
        assertThat(c.toString()).doesNotContain(c.recoveryWords().get(0) + " ");
    }

    @Test
    void theListSurvivesARestart() throws Exception {
        t.create("Taxes");
        t.create("Photos");
        VaultService restarted = t.open();
        assertThat(restarted.vaults()).extracting(v -> v.settings().name()).containsExactly("Taxes", "Photos");
        assertThat(restarted.vaults()).allMatch(v -> v.state() == VaultState.LOCKED);
    }

    @Test
    void createRefusesAFolderThatIsNotEmpty() throws Exception {
        Files.createDirectories(tmp.resolve("Taken"));
        Files.writeString(tmp.resolve("Taken/note.txt"), "x");
        char[] p = TestVaults.PASSPHRASE.toCharArray();
        assertThatThrownBy(() -> t.service.create(tmp, "Taken", p, dev.coffer.core.vault.CipherCombo.SIV_XTSHMAC))
                .isInstanceOfSatisfying(VaultException.class, e -> assertThat(e.problem()).isEqualTo(Problem.FOLDER_NOT_EMPTY));
        assertThat(p).containsOnly('\0');
    }

    @Test
    void wrongPassphraseLeavesItLockedAndWipesTheArray() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        char[] wrong = "not the passphrase".toCharArray();
        assertThatThrownBy(() -> t.service.unlock(v, wrong))
                .isInstanceOfSatisfying(VaultException.class, e -> assertThat(e.problem()).isEqualTo(Problem.WRONG_PASSPHRASE));
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);
        assertThat(v.problem()).isEmpty();
        assertThat(wrong).containsOnly('\0');
        assertThat(t.fuse.drives).isEmpty();
    }

    @Test
    void aPassphraseThatOpensOnlyASyncConflictCopyOfTheKeyFileIsSaidSoNotCalledWrong() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        Path folder = v.settings().folderPath();
        byte[] ours = Files.readAllBytes(folder.resolve("masterkey.coffer"));
        // another device changed the passphrase; the sync kept its file as a conflict copy
        dev.coffer.core.vault.VaultAccess.changePassphrase(folder, TestVaults.PASSPHRASE.toCharArray(), "changed elsewhere".toCharArray());
        Files.move(folder.resolve("masterkey.coffer"), folder.resolve("masterkey (1).coffer"));
        Files.write(folder.resolve("masterkey.coffer"), ours);
        char[] theirs = "changed elsewhere".toCharArray();
        assertThatThrownBy(() -> t.service.unlock(v, theirs))
                .isInstanceOfSatisfying(VaultException.class, e -> {
                    assertThat(e.problem()).isEqualTo(Problem.PASSPHRASE_OF_CONFLICT_COPY);
                    assertThat(e.detail()).contains("masterkey (1).coffer").doesNotContain("changed elsewhere");
                });
        // shown on the vault until the person decides which key file stays; nothing mounted
        assertThat(v.state()).isEqualTo(VaultState.ERROR);
        assertThat(v.problem()).hasValueSatisfying(e -> assertThat(e.problem()).isEqualTo(Problem.PASSPHRASE_OF_CONFLICT_COPY));
        assertThat(theirs).containsOnly('\0');
        assertThat(t.fuse.drives).isEmpty();
    }

    @Test
    void unlockMountsLockUnmountsAndClosesTheFileSystem() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        AtomicInteger events = new AtomicInteger();
        t.service.addListener(events::incrementAndGet);
        char[] p = TestVaults.PASSPHRASE.toCharArray();
        t.service.unlock(v, p);
        assertThat(p).containsOnly('\0');
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        FakeMounter.FakeDrive drive = t.fuse.drives.get(0);
        assertThat(drive.request.mountPoint()).isEqualTo(tmp.resolve("mnt/Taxes"));
        assertThat(v.drive()).contains(drive);
        drive.write("hello.txt", "hello vault");
        CofferFileSystem fs = (CofferFileSystem) drive.cleartextRoot.getFileSystem();

        t.service.lock(v, false);
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);
        assertThat(drive.mounted).isFalse();
        assertThat(fs.isOpen()).isFalse();
        assertThat(fs.keysDestroyed()).isTrue();
        assertThat(events.get()).isGreaterThanOrEqualTo(4); // unlocking, unlocked, locking, locked
        try (CofferFileSystem again = CofferFileSystems.open(tmp.resolve("Taxes"), TestVaults.PASSPHRASE.toCharArray(), true)) {
            assertThat(Files.readString(again.getPath("/hello.txt"))).isEqualTo("hello vault");
        }
    }

    /**
     * A drive letter as the mount point reaches the mounter as given (WinFsp takes {@code Z:}; the
     * FUSE frontend refuses it clearly elsewhere): not made absolute against the working folder, and
     * no folder is created for it.
     */
    @Test
    void aDriveLetterReachesTheMounterAsGiven() throws Exception {
        ManagedVault v = t.create("Photos").vault();
        t.service.update(v, s -> s.withMount(s.mountMethod(), " Z: ", s.readOnly()));
        assertThat(t.service.mountPoint(v.settings())).isEqualTo(Path.of("Z:"));
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        assertThat(t.fuse.drives.get(0).request.mountPoint()).isEqualTo(Path.of("Z:"));
        t.service.lock(v, false);
        t.service.update(v, s -> s.withMount(s.mountMethod(), "Z:\\", s.readOnly()));
        assertThat(t.service.mountPoint(v.settings())).isEqualTo(Path.of("Z:\\"));
        t.service.update(v, s -> s.withMount(s.mountMethod(), "ZZ:", s.readOnly()));
        assertThat(t.service.mountPoint(v.settings())).isEqualTo(Path.of("ZZ:").toAbsolutePath());
    }

    @Test
    void lockWithOpenFilesIsRefusedUntilForced() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        FakeMounter.FakeDrive drive = t.fuse.drives.get(0);
        drive.busy = true;
        assertThatThrownBy(() -> t.service.lock(v, false))
                .isInstanceOfSatisfying(VaultException.class, e -> assertThat(e.problem()).isEqualTo(Problem.DRIVE_BUSY));
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        assertThat(drive.mounted).isTrue();
        t.service.lock(v, true);
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);
    }

    @Test
    void lockAllReportsTheBusyOnes() throws Exception {
        ManagedVault a = t.create("A").vault();
        ManagedVault b = t.create("B").vault();
        t.service.unlock(a, TestVaults.PASSPHRASE.toCharArray());
        t.service.unlock(b, TestVaults.PASSPHRASE.toCharArray());
        t.fuse.drives.get(1).busy = true;
        assertThat(t.service.lockAll(false)).containsExactly(b);
        assertThat(a.state()).isEqualTo(VaultState.LOCKED);
        assertThat(t.service.lockAll(true)).isEmpty();
        assertThat(b.state()).isEqualTo(VaultState.LOCKED);
    }

    @Test
    void fuseMissingIsAnErrorBeforeScryptWithWhatToInstall() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        t.fuse.unavailable = new VaultException(Problem.FUSE_MISSING, "install fuse3 and libfuse2");
        char[] p = TestVaults.PASSPHRASE.toCharArray();
        assertThatThrownBy(() -> t.service.unlock(v, p))
                .isInstanceOfSatisfying(VaultException.class, e -> {
                    assertThat(e.problem()).isEqualTo(Problem.FUSE_MISSING);
                    assertThat(e.detail()).contains("fuse3");
                });
        assertThat(v.state()).isEqualTo(VaultState.ERROR);
        assertThat(v.problem()).get().extracting(VaultException::problem).isEqualTo(Problem.FUSE_MISSING);
        assertThat(p).containsOnly('\0');
    }

    @Test
    void autoFallsBackToWebDavWhenFuseIsMissing() throws Exception {
        FakeMounter webDav = new FakeMounter(MountMethod.WEBDAV);
        VaultService s = new VaultService(new SettingsStore(tmp.resolve("config2")), new Mounters().with(t.fuse).with(webDav),
                t.clock, tmp.resolve("mnt"), TestVaults.FAST_SCRYPT);
        ManagedVault v = s.create(tmp, "Taxes", TestVaults.PASSPHRASE.toCharArray(),
                dev.coffer.core.vault.CipherCombo.SIV_XTSHMAC).vault();
        t.fuse.unavailable = new VaultException(Problem.FUSE_MISSING, "install fuse3");
        s.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        assertThat(v.drive()).get().extracting(Drive::method).isEqualTo(MountMethod.WEBDAV);
        assertThat(t.fuse.drives).isEmpty();
        s.lock(v, false);
    }

    @Test
    void anExplicitMethodThatThisBuildLacksIsSaidSo() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        t.service.update(v, s -> s.withMount(MountMethod.WEBDAV, "", false));
        assertThatThrownBy(() -> t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray()))
                .isInstanceOfSatisfying(VaultException.class, e -> assertThat(e.problem()).isEqualTo(Problem.METHOD_UNAVAILABLE));
    }

    @Test
    void aMissingFolderAndADamagedConfigurationAreErrorsThatCanBeRetried() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        Files.move(tmp.resolve("Taxes"), tmp.resolve("Moved"));
        assertThatThrownBy(() -> t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray()))
                .isInstanceOfSatisfying(VaultException.class, e -> assertThat(e.problem()).isEqualTo(Problem.FOLDER_MISSING));
        assertThat(v.state()).isEqualTo(VaultState.ERROR);
        Files.move(tmp.resolve("Moved"), tmp.resolve("Taxes"));
        Files.writeString(tmp.resolve("Taxes/vault.coffer"), "garbage");
        assertThatThrownBy(() -> t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray()))
                .isInstanceOfSatisfying(VaultException.class,
                        e -> assertThat(e.problem()).isEqualTo(Problem.DAMAGED_CONFIGURATION));
        assertThat(v.state()).isEqualTo(VaultState.ERROR);
    }

    @Test
    void addAcceptsTheFolderOrItsVaultCofferOnceAndRefusesOtherFolders() throws Exception {
        t.create("Taxes");
        VaultService other = new VaultService(new SettingsStore(tmp.resolve("config2")), new Mounters().with(t.fuse), t.clock,
                tmp.resolve("mnt"), TestVaults.FAST_SCRYPT);
        ManagedVault byFile = other.add(tmp.resolve("Taxes/vault.coffer"));
        assertThat(other.add(tmp.resolve("Taxes"))).isSameAs(byFile);
        assertThat(other.vaults()).hasSize(1);
        Files.createDirectories(tmp.resolve("plain"));
        assertThatThrownBy(() -> other.add(tmp.resolve("plain")))
                .isInstanceOfSatisfying(VaultException.class, e -> assertThat(e.problem()).isEqualTo(Problem.NOT_A_VAULT));
        assertThatThrownBy(() -> other.add(tmp.resolve("nowhere")))
                .isInstanceOfSatisfying(VaultException.class, e -> assertThat(e.problem()).isEqualTo(Problem.FOLDER_MISSING));
    }

    @Test
    void removeNeverDeletesFilesAndRefusesAnUnlockedVault() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        assertThatThrownBy(() -> t.service.remove(v)).isInstanceOf(IllegalStateException.class);
        t.service.lock(v, false);
        t.service.remove(v);
        assertThat(t.service.vaults()).isEmpty();
        assertThat(tmp.resolve("Taxes/vault.coffer")).isRegularFile();
        assertThat(tmp.resolve("Taxes/masterkey.coffer")).isRegularFile();
        assertThat(t.open().vaults()).isEmpty();
    }

    @Test
    void aMountPointInsideTheVaultFolderIsRefused() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        t.service.update(v, s -> s.withMount(MountMethod.FUSE, tmp.resolve("Taxes/inside").toString(), false));
        assertThatThrownBy(() -> t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray()))
                .isInstanceOfSatisfying(VaultException.class, e -> assertThat(e.problem()).isEqualTo(Problem.MOUNT_POINT_BUSY));
    }

    @Test
    void anUnlockedVaultHoldsTheInUseLockSoARepairWaits() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        Path folder = v.settings().folderPath();
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        assertThat(dev.coffer.core.health.VaultUseLock.forRepair(folder)).as("repair refused while unlocked").isNull();
        VaultKeys.recoveryKey(v, TestVaults.PASSPHRASE.toCharArray()); // reads vault.coffer, then takes the lock again
        assertThat(dev.coffer.core.health.VaultUseLock.forRepair(folder)).isNull();
        t.service.lock(v, false);
        try (var repair = dev.coffer.core.health.VaultUseLock.forRepair(folder)) {
            assertThat(repair).as("free once locked").isNotNull();
        }
    }

    @Test
    void aVaultUnderRepairCannotBeUnlocked() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        try (var repair = dev.coffer.core.health.VaultUseLock.forRepair(v.settings().folderPath())) {
            assertThat(repair).isNotNull();
            assertThatThrownBy(() -> t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray()))
                    .isInstanceOfSatisfying(VaultException.class, e -> assertThat(e.problem()).isEqualTo(Problem.IN_REPAIR));
        }
        assertThat(v.state()).isEqualTo(VaultState.ERROR);
        assertThat(t.fuse.drives).isEmpty();
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray()); // after the repair
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        t.service.lock(v, false);
    }

    @Test
    void vaultsWhoseDriveVanishedAreLocked() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        t.fuse.drives.get(0).mounted = false; // unmounted from a terminal
        t.service.lockVanishedDrives();
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);
    }

    /** What the conflict-copy listeners of the service heard: the vault, the event and the thread. */
    private record Heard(ManagedVault vault, ConflictCopy copy, String thread) {
    }

    @Test
    void aConflictCopyInAnUnlockedVaultIsToldWithTheVaultAndItsPaths() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        List<Heard> heard = new CopyOnWriteArrayList<>();
        t.service.addConflictCopyListener((vault, copy) -> heard.add(new Heard(vault, copy, Thread.currentThread().getName())));
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        Path root = t.fuse.drives.get(0).cleartextRoot;
        TestVaults.orphanedWriter(root, v.settings().folderPath(), "/docs/report.txt", "written here").close();
        assertThat(heard).containsExactly(new Heard(v, ConflictCopy.kept("/docs/report.txt", "/docs/report.txt (Conflict 1)"),
                Thread.currentThread().getName()));
        assertThat(Files.readString(root.resolve("docs/report.txt (Conflict 1)"))).isEqualTo("written here");
    }

    @Test
    void aConflictCopyMadeWhileLockingIsToldToo() throws Exception {
        ManagedVault v = t.create("Taxes").vault();
        List<Heard> heard = new CopyOnWriteArrayList<>();
        t.service.addConflictCopyListener((vault, copy) -> heard.add(new Heard(vault, copy, Thread.currentThread().getName())));
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        java.nio.channels.FileChannel stillOpen = TestVaults.orphanedWriter(t.fuse.drives.get(0).cleartextRoot,
                v.settings().folderPath(), "/notes.txt", "unsaved");
        t.service.lock(v, true);
        assertThat(stillOpen.isOpen()).isFalse();
        assertThat(heard).containsExactly(new Heard(v, ConflictCopy.kept("/notes.txt", "/notes.txt (Conflict 1)"),
                Thread.currentThread().getName()));
    }
}
