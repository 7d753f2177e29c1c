package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.vaults.FakeMounter;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.TestVaults;
import dev.coffer.app.vaults.VaultState;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.CipherCombo;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every flow of the ViewModels without JavaFX's toolkit: the work runs synchronously, the drive is
 * fake (the real FUSE mount is {@code GuiEndToEndIT}'s).
 */
class ViewModelTest {
    @TempDir
    Path tmp;

    private TestVaults t;
    private final SyncBackground background = new SyncBackground();
    private final Messages en = Messages.of(Locale.ENGLISH);
    private final List<URI> revealed = new ArrayList<>();
    private Path home;
    private final MemoryKeyring keyring = new MemoryKeyring();

    @BeforeEach
    void setUp() throws Exception {
        t = new TestVaults(tmp);
        home = Files.createDirectories(tmp.resolve("home"));
    }

    private CreateVaultViewModel wizard() {
        return new CreateVaultViewModel(t.service, background, en, home);
    }

    private ManagedVault created(String name) throws Exception {
        return t.create(name).vault();
    }

    @Test
    void createWizardWalksNameLocationPassphraseRecoveryKey() throws Exception {
        Files.createDirectories(home.resolve("Dropbox"));
        Files.createDirectories(home.resolve("Nextcloud"));
        CreateVaultViewModel w = wizard();
        assertThat(w.syncFolders()).extracting(f -> f.service()).containsExactly("Dropbox", "Nextcloud");
        assertThat(w.location().get()).isEqualTo(home.resolve("Dropbox").toString());

        assertThat(w.next()).isEqualTo("Please enter a name.");
        w.name().set("a/b");
        assertThat(w.next()).contains("cannot contain");
        w.name().set("Taxes");
        assertThat(w.next()).isEmpty();
        assertThat(w.step().get()).isEqualTo(CreateVaultViewModel.Step.LOCATION);
        w.location().set(tmp.resolve("nowhere").toString());
        assertThat(w.next()).isEqualTo("Choose an existing folder.");
        w.location().set(home.resolve("Nextcloud").toString());
        assertThat(w.next()).isEmpty();
        assertThat(w.step().get()).isEqualTo(CreateVaultViewModel.Step.PASSPHRASE);

        w.passphraseTyped("short", "short");
        assertThat(w.passphraseAcceptable().get()).isFalse();
        assertThat(w.passphraseProblem().get()).isEqualTo("Use at least 8 characters.");
        w.passphraseTyped("password", "password");
        assertThat(w.strength().get()).isZero();
        assertThat(w.strengthText().get()).startsWith("Very weak");
        w.passphraseTyped("vinegar telescope umbrella orbit", "vinegar telescope umbrella orbi");
        assertThat(w.passphraseProblem().get()).isEqualTo("The two passphrases are not the same.");
        w.passphraseTyped("vinegar telescope umbrella orbit", "vinegar telescope umbrella orbit");
        assertThat(w.strength().get()).isEqualTo(4);
        assertThat(w.passphraseAcceptable().get()).isTrue();
        assertThat(w.contentMode()).isEqualTo(CipherCombo.SIV_XTSHMAC);

        char[] p = "vinegar telescope umbrella orbit".toCharArray();
        char[] c = "vinegar telescope umbrella orbit".toCharArray();
        w.create(p, c);
        assertThat(p).containsOnly('\0');
        assertThat(c).containsOnly('\0');
        assertThat(w.error().get()).isEmpty();
        assertThat(w.step().get()).isEqualTo(CreateVaultViewModel.Step.RECOVERY_KEY);
        assertThat(w.recoveryKey().get().split("\\s+")).hasSize(48);
        assertThat(w.recoveryKey().get().lines()).hasSize(4);
        assertThat(w.canFinish()).isFalse();
        w.recoveryKeyWrittenDown().set(true);
        assertThat(w.canFinish()).isTrue();
        w.finish();
        assertThat(w.recoveryKey().get()).isEmpty();
        assertThat(home.resolve("Nextcloud/Taxes/vault.coffer")).isRegularFile();
        assertThat(t.service.vaults()).containsExactly(w.created().get());
    }

    @Test
    void createWizardExpertModeMakesAnXtsVault() throws Exception {
        CreateVaultViewModel w = wizard();
        w.name().set("Disk");
        w.next();
        w.location().set(tmp.toString());
        w.next();
        w.expertXts().set(true);
        w.create("vinegar telescope umbrella".toCharArray(), "vinegar telescope umbrella".toCharArray());
        try (CofferFileSystem fs = CofferFileSystems.open(tmp.resolve("Disk"), "vinegar telescope umbrella".toCharArray(), true)) {
            assertThat(fs.info().authenticated()).isFalse();
        }
    }

    @Test
    void createRefusesATooShortPassphraseWithoutWork() {
        CreateVaultViewModel w = wizard();
        w.name().set("Taxes");
        w.next();
        w.location().set(tmp.toString());
        w.next();
        char[] p = "short".toCharArray();
        w.create(p, "short".toCharArray());
        assertThat(p).containsOnly('\0');
        assertThat(background.runs).isZero();
        assertThat(w.error().get()).isEqualTo("Use at least 8 characters.");
        assertThat(w.step().get()).isEqualTo(CreateVaultViewModel.Step.PASSPHRASE);
    }

    @Test
    void createReportsAnExistingFolderOnTheLocationStep() throws Exception {
        Files.createDirectories(tmp.resolve("Taxes"));
        CreateVaultViewModel w = wizard();
        w.name().set("Taxes");
        w.next();
        w.location().set(tmp.toString());
        assertThat(w.next()).isEqualTo("A file or folder with this name already exists there.");
    }

    @Test
    void unlockWrongThenRightRevealsTheDrive() throws Exception {
        ManagedVault v = created("Taxes");
        UnlockViewModel u = new UnlockViewModel(v, t.service, background, en, revealed::add, keyring);
        char[] wrong = "not it at all".toCharArray();
        u.unlock(wrong);
        assertThat(wrong).containsOnly('\0');
        assertThat(u.wrongPassphrase().get()).isTrue();
        assertThat(u.error().get()).isEqualTo("Wrong passphrase. Please try again.");
        assertThat(u.done().get()).isFalse();
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);

        u.unlock(TestVaults.PASSPHRASE.toCharArray());
        assertThat(u.done().get()).isTrue();
        assertThat(u.error().get()).isEmpty();
        assertThat(u.wrongPassphrase().get()).isFalse();
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        assertThat(revealed).containsExactly(tmp.resolve("mnt/Taxes").toUri());
    }

    @Test
    void unlockWithFuseMissingSaysWhatToInstall() throws Exception {
        ManagedVault v = created("Taxes");
        t.fuse.unavailable = new dev.coffer.app.vaults.VaultException(dev.coffer.app.vaults.Problem.FUSE_MISSING,
                "install the packages fuse3 and libfuse2");
        UnlockViewModel u = new UnlockViewModel(v, t.service, background, en, revealed::add, keyring);
        u.unlock(TestVaults.PASSPHRASE.toCharArray());
        assertThat(u.error().get()).startsWith("FUSE is not available").contains("fuse3 and libfuse2");
        assertThat(u.wrongPassphrase().get()).isFalse();
        assertThat(v.state()).isEqualTo(VaultState.ERROR);
    }

    @Test
    void mainListFollowsTheServiceAndLockWithOpenFilesOffersForce() throws Exception {
        MainViewModel m = new MainViewModel(t.service, background, en, revealed::add, Runnable::run);
        assertThat(m.vaults()).isEmpty();
        ManagedVault v = created("Taxes");
        assertThat(m.vaults()).containsExactly(v);
        assertThat(m.selected().get()).isSameAs(v);
        assertThat(m.stateText(v)).isEqualTo("Locked");

        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        assertThat(m.stateText(v)).isEqualTo("Unlocked at " + tmp.resolve("mnt/Taxes"));
        m.revealSelected();
        assertThat(revealed).containsExactly(tmp.resolve("mnt/Taxes").toUri());

        FakeMounter.FakeDrive drive = t.fuse.drives.get(0);
        drive.busy = true;
        m.lockSelected();
        assertThat(m.forceLockOffer().get()).isSameAs(v);
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        m.declineForceLock(v);
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        m.lockSelected();
        m.forceLock(v);
        assertThat(m.forceLockOffer().get()).isNull();
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);
        assertThat(drive.mounted).isFalse();
    }

    @Test
    void aConflictCopyIsNoticedWithWhereTheWritesAreAndStaysUntilDismissed() throws Exception {
        MainViewModel m = new MainViewModel(t.service, background, en, revealed::add, Runnable::run);
        ManagedVault v = created("Taxes");
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        Path root = t.fuse.drives.get(0).cleartextRoot;
        assertThat(m.conflictNotice().get()).isEmpty();

        TestVaults.orphanedWriter(root, v.settings().folderPath(), "/docs/report.txt", "written here").close();
        String first = "\u201creport.txt\u201d in /docs (vault \u201cTaxes\u201d) was changed here while another device "
                + "replaced or deleted it. What was written here is kept as \u201creport.txt (Conflict 1)\u201d in /docs.";
        assertThat(m.conflictNotice().get()).isEqualTo(first);

        // one more, copied when the vault locks: the lock's own outcome does not clear it
        java.nio.channels.FileChannel stillOpen = TestVaults.orphanedWriter(root, v.settings().folderPath(), "/notes.txt", "unsaved");
        m.lockSelected();
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);
        assertThat(stillOpen.isOpen()).isFalse();
        assertThat(m.conflictNotice().get()).isEqualTo("\u201cnotes.txt\u201d in the vault\u2019s top folder (vault \u201cTaxes\u201d) "
                + "was changed here while another device replaced or deleted it. What was written here is kept as "
                + "\u201cnotes.txt (Conflict 1)\u201d in the vault\u2019s top folder.\n"
                + "The same happened to one more file since this message was last dismissed: look for names ending in "
                + "\u201c(Conflict 1)\u201d, \u201c(Conflict 2)\u201d and so on.");

        m.dismissConflictNotice();
        assertThat(m.conflictNotice().get()).isEmpty();
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        TestVaults.orphanedWriter(t.fuse.drives.get(1).cleartextRoot, v.settings().folderPath(), "/docs/report.txt", "again").close();
        assertThat(m.conflictNotice().get()).as("counted afresh after the dismissal")
                .isEqualTo(first.replace("(Conflict 1)", "(Conflict 2)"));
    }

    @Test
    void aConflictCopyKeptInPartOrNotAtAllSaysSo() throws Exception {
        MainViewModel m = new MainViewModel(t.service, background, en, revealed::add, Runnable::run);
        ManagedVault v = created("Taxes");
        assertThat(m.conflictText(v, dev.coffer.core.nio.ConflictCopy.keptInPart("/a/b/film.mkv", "/film.mkv (Conflict 3)")))
                .isEqualTo("\u201cfilm.mkv\u201d in /a/b (vault \u201cTaxes\u201d) was changed here while another device replaced "
                        + "or deleted it. Only part of what was written here could be kept, as \u201cfilm.mkv (Conflict 3)\u201d in "
                        + "the vault\u2019s top folder; the rest is lost (the disk may be full, or the file damaged).");
        assertThat(m.conflictText(v, dev.coffer.core.nio.ConflictCopy.notKept("/docs/report.txt")))
                .isEqualTo("\u201creport.txt\u201d in /docs (vault \u201cTaxes\u201d) was changed here while another device "
                        + "replaced or deleted it. What was written here could not be kept (the disk may be full, or the file damaged).");
        MainViewModel german = new MainViewModel(t.service, background, Messages.of(Locale.GERMAN), revealed::add, Runnable::run);
        assertThat(german.conflictText(v, dev.coffer.core.nio.ConflictCopy.kept("/notes.txt", "/notes.txt (Conflict 1)")))
                .isEqualTo("\u201enotes.txt\u201c in dem obersten Ordner des Tresors (Tresor \u201eTaxes\u201c) wurde hier "
                        + "ge\u00e4ndert, w\u00e4hrend ein anderes Ger\u00e4t die Datei ersetzt oder gel\u00f6scht hat. Was hier "
                        + "geschrieben wurde, ist als \u201enotes.txt (Conflict 1)\u201c in dem obersten Ordner des Tresors erhalten.");
    }

    @Test
    void lockAllNamesTheVaultsThatStayedUnlockedAndOffersEachBusyOneTheForcedLock() throws Exception {
        MainViewModel m = new MainViewModel(t.service, background, en, revealed::add, Runnable::run);
        ManagedVault daily = created("Daily");
        ManagedVault work = created("Work");
        ManagedVault music = created("Music");
        for (ManagedVault v : List.of(daily, work, music)) {
            t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        }
        t.fuse.drives.get(1).busy = true; // Work
        t.fuse.drives.get(2).busy = true; // Music
        int[] shown = {0};

        m.lockAllOfferingForce(() -> shown[0]++);
        assertThat(daily.state()).isEqualTo(VaultState.LOCKED);
        assertThat(work.state()).isEqualTo(VaultState.UNLOCKED);
        assertThat(music.state()).isEqualTo(VaultState.UNLOCKED);
        assertThat(shown[0]).as("the window is asked to show").isEqualTo(1);
        assertThat(m.notice().get()).isEqualTo("Not every vault could be locked: "
                + "\u201cWork\u201d stayed unlocked because programs have files open in it; "
                + "\u201cMusic\u201d stayed unlocked because programs have files open in it");
        assertThat(m.forceLockOffer().get()).isSameAs(work);

        m.declineForceLock(work); // Work stays; Music is asked next
        assertThat(work.state()).isEqualTo(VaultState.UNLOCKED);
        assertThat(m.forceLockOffer().get()).isSameAs(music);
        m.forceLock(music);
        assertThat(music.state()).isEqualTo(VaultState.LOCKED);
        assertThat(m.forceLockOffer().get()).isNull();

        t.fuse.drives.get(1).busy = false;
        m.lockAllOfferingForce(() -> shown[0]++);
        assertThat(work.state()).isEqualTo(VaultState.LOCKED);
        assertThat(m.notice().get()).isEmpty();
        assertThat(shown[0]).as("nothing stayed: the window is left as it is").isEqualTo(1);
    }

    @Test
    void theAnswerToAForcedLockQuestionGoesToTheVaultItNamed() throws Exception {
        MainViewModel m = new MainViewModel(t.service, background, en, revealed::add, Runnable::run);
        ManagedVault work = created("Work");
        ManagedVault music = created("Music");
        ManagedVault daily = created("Daily");
        for (ManagedVault v : List.of(work, music, daily)) {
            t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        }
        t.fuse.drives.forEach(d -> d.busy = true);
        m.lockAllOfferingForce(() -> { });
        assertThat(m.forceLockOffer().get()).as("the question about Work is open").isSameAs(work);
        // While it is open, the tray's "Daily - Unlocked" finds Daily busy, and Lock all is asked again.
        m.selected().set(daily);
        m.lockSelected();
        m.lockAllOfferingForce(() -> { });

        m.forceLock(work); // the person answers the question that named Work
        assertThat(work.state()).isEqualTo(VaultState.LOCKED);
        assertThat(daily.state()).as("nobody agreed to force Daily").isEqualTo(VaultState.UNLOCKED);
        assertThat(m.forceLockOffer().get()).isSameAs(daily);
        m.declineForceLock(daily);
        assertThat(m.forceLockOffer().get()).isSameAs(music);
        m.declineForceLock(music);
        assertThat(m.forceLockOffer().get()).as("each vault asked about once").isNull();
        assertThat(List.of(music.state(), daily.state())).containsOnly(VaultState.UNLOCKED);
    }

    @Test
    void mainAddAndDropAndRemove() throws Exception {
        created("Taxes");
        Files.createDirectories(tmp.resolve("plain"));
        TestVaults other = new TestVaults(tmp.resolve("other"));
        MainViewModel m = new MainViewModel(other.service, background, en, revealed::add, Runnable::run);
        assertThat(m.addDropped(List.of(tmp.resolve("plain")))).isFalse();
        assertThat(m.notice().get()).isEqualTo("This folder is not a Coffer vault (it has no vault.coffer).\n" + tmp.resolve("plain"));
        assertThat(m.addDropped(List.of(tmp.resolve("Taxes/vault.coffer")))).isTrue();
        assertThat(m.notice().get()).isEmpty();
        assertThat(m.vaults()).hasSize(1);
        m.removeSelected();
        assertThat(m.vaults()).isEmpty();
        assertThat(tmp.resolve("Taxes/vault.coffer")).isRegularFile();
    }

    @Test
    void aWizardClosedWhileCreatingKeepsNoRecoveryKey() throws Exception {
        HeldBackground held = new HeldBackground();
        CreateVaultViewModel w = new CreateVaultViewModel(t.service, held, en, home);
        w.name().set("Taxes");
        w.location().set(home.toString());
        w.next();
        w.next();
        w.create("vinegar telescope umbrella orbit".toCharArray(), "vinegar telescope umbrella orbit".toCharArray());
        w.finish(); // the wizard closed while the vault was being created
        assertThat(held.release()).isEqualTo(1);
        assertThat(w.created().get()).as("the vault, created all the same").isNotNull();
        assertThat(w.recoveryKey().get()).isEmpty();
    }

    @Test
    void aRecoveryKeyReadAfterItsTabWasLeftOrTheOptionsClosedIsDropped() throws Exception {
        var c = t.create("Taxes");
        HeldBackground held = new HeldBackground();
        VaultOptionsViewModel o = new VaultOptionsViewModel(c.vault(), t.service, held, en, keyring);
        String shown = CreateVaultViewModel.format(c.recoveryWords());
        o.showRecoveryKey(TestVaults.PASSPHRASE.toCharArray());
        o.forgetRecoveryKey(); // the tab left while the key was being read
        assertThat(held.release()).isEqualTo(1);
        assertThat(o.recoveryKey().get()).isEmpty();
        assertThat(o.busy().get()).isFalse();

        o.showRecoveryKey(TestVaults.PASSPHRASE.toCharArray());
        o.close();
        held.release();
        assertThat(o.recoveryKey().get()).isEmpty();

        o.showRecoveryKey(TestVaults.PASSPHRASE.toCharArray());
        held.release();
        assertThat(o.recoveryKey().get()).as("asked again and not forgotten").isEqualTo(shown);
        o.forgetRecoveryKey();
        assertThat(o.recoveryKey().get()).isEmpty();
    }

    @Test
    void optionsChangePassphraseShowRecoveryKeyAndReset() throws Exception {
        var c = t.create("Taxes");
        VaultOptionsViewModel o = new VaultOptionsViewModel(c.vault(), t.service, background, en, keyring);
        o.changePassphrase(TestVaults.PASSPHRASE.toCharArray(), "new passphrase!".toCharArray(), "new passphrase?".toCharArray());
        assertThat(o.failed().get()).isTrue();
        assertThat(o.status().get()).isEqualTo("The two passphrases are not the same.");
        o.changePassphrase("wrong!!!".toCharArray(), "new passphrase!".toCharArray(), "new passphrase!".toCharArray());
        assertThat(o.status().get()).isEqualTo("Wrong passphrase. Please try again.");
        o.changePassphrase(TestVaults.PASSPHRASE.toCharArray(), "new passphrase!".toCharArray(), "new passphrase!".toCharArray());
        assertThat(o.failed().get()).isFalse();
        assertThat(o.status().get()).isEqualTo("The passphrase was changed.");

        o.showRecoveryKey("new passphrase!".toCharArray());
        assertThat(o.recoveryKey().get()).isEqualTo(CreateVaultViewModel.format(c.recoveryWords()));
        o.close();
        assertThat(o.recoveryKey().get()).isEmpty();

        o.resetPassphrase("abandon " + String.join(" ", c.recoveryWords().subList(1, 48)), "after reset!".toCharArray(),
                "after reset!".toCharArray());
        assertThat(o.failed().get()).isTrue();
        assertThat(o.status().get()).startsWith("This recovery key does not fit this vault.");
        o.resetPassphrase(String.join(" ", c.recoveryWords()), "after reset!".toCharArray(), "after reset!".toCharArray());
        assertThat(o.status().get()).isEqualTo("The passphrase was reset.");
        t.service.unlock(c.vault(), "after reset!".toCharArray());
        assertThat(c.vault().state()).isEqualTo(VaultState.UNLOCKED);
        t.service.lock(c.vault(), false);
    }

    @Test
    void optionsSaveTheVaultSettings() throws Exception {
        ManagedVault v = created("Taxes");
        VaultOptionsViewModel o = new VaultOptionsViewModel(v, t.service, background, en, keyring);
        assertThat(o.defaultMountPoint()).isEqualTo(tmp.resolve("mnt/Taxes").toString());
        o.name().set("Tax papers");
        o.readOnly().set(true);
        o.autoLockMinutes().set(15);
        o.mountPoint().set(tmp.resolve("drive").toString());
        assertThat(o.save()).isTrue();
        var saved = t.open().vaults().get(0).settings();
        assertThat(saved.name()).isEqualTo("Tax papers");
        assertThat(saved.readOnly()).isTrue();
        assertThat(saved.autoLockMinutes()).isEqualTo(15);
        assertThat(saved.mountPoint()).isEqualTo(tmp.resolve("drive").toString());
        o.name().set(" ");
        assertThat(o.save()).isFalse();
    }

    @Test
    void preferencesAreSavedAndOutOfRangeValuesRefused() throws Exception {
        PreferencesViewModel p = new PreferencesViewModel(t.service, en);
        p.theme().set(dev.coffer.app.vaults.Theme.DARK);
        p.language().set("de");
        p.autoLockMinutesDefault().set(20);
        assertThat(p.save()).isTrue();
        assertThat(t.open().preferences().theme()).isEqualTo(dev.coffer.app.vaults.Theme.DARK);
        assertThat(created("New").settings().autoLockMinutes()).isEqualTo(20);
        p.webDavPort().set(70_000);
        assertThat(p.save()).isFalse();
        assertThat(p.status().get()).startsWith("Not saved");
    }

    @Test
    void rememberedPassphraseUnlocksNextTimeAndFollowsAChange() throws Exception {
        ManagedVault v = created("Taxes");
        UnlockViewModel first = new UnlockViewModel(v, t.service, background, en, revealed::add, keyring);
        first.tryRemembered();
        assertThat(first.done().get()).isFalse(); // nothing remembered yet
        first.remember().set(true);
        first.unlock(TestVaults.PASSPHRASE.toCharArray());
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        assertThat(keyring.get(v.id())).isEqualTo(TestVaults.PASSPHRASE);
        t.service.lock(v, false);

        UnlockViewModel next = new UnlockViewModel(v, t.service, background, en, revealed::add, keyring);
        next.tryRemembered();
        assertThat(next.done().get()).isTrue();
        assertThat(next.remember().get()).isTrue();
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        t.service.lock(v, false);

        VaultOptionsViewModel o = new VaultOptionsViewModel(v, t.service, background, en, keyring);
        o.changePassphrase(TestVaults.PASSPHRASE.toCharArray(), "changed passphrase".toCharArray(),
                "changed passphrase".toCharArray());
        assertThat(keyring.get(v.id())).isEqualTo("changed passphrase");
    }

    @Test
    void aRememberedPassphraseThatNoLongerFitsIsForgottenAndUntickingForgets() throws Exception {
        ManagedVault v = created("Taxes");
        keyring.save(v.id(), "an old passphrase".toCharArray());
        UnlockViewModel u = new UnlockViewModel(v, t.service, background, en, revealed::add, keyring);
        u.tryRemembered();
        assertThat(u.wrongPassphrase().get()).isTrue();
        assertThat(keyring.get(v.id())).isNull();
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);

        keyring.save(v.id(), TestVaults.PASSPHRASE.toCharArray());
        UnlockViewModel unticked = new UnlockViewModel(v, t.service, background, en, revealed::add, keyring);
        unticked.unlock(TestVaults.PASSPHRASE.toCharArray()); // typed, "remember" not ticked
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        assertThat(keyring.get(v.id())).isNull();
    }

    @Test
    void forgettingInTheOptionsDeletesTheRememberedPassphrase() throws Exception {
        ManagedVault v = created("Taxes");
        VaultOptionsViewModel o = new VaultOptionsViewModel(v, t.service, background, en, keyring);
        o.checkRemembered();
        assertThat(o.remembered().get()).isFalse();
        keyring.save(v.id(), TestVaults.PASSPHRASE.toCharArray());
        o.checkRemembered();
        assertThat(o.remembered().get()).isTrue();
        o.forgetRemembered();
        assertThat(keyring.get(v.id())).isNull();
        assertThat(o.remembered().get()).isFalse();
        assertThat(o.status().get()).startsWith("The passphrase is no longer remembered");
    }

    @Test
    void withoutAKeyringTheOptionSaysWhyAndUnlockingStillWorks() throws Exception {
        ManagedVault v = created("Taxes");
        var none = dev.coffer.app.os.PassphraseStore.unavailable("no Secret Service on the session bus");
        UnlockViewModel u = new UnlockViewModel(v, t.service, background, en, revealed::add, none);
        assertThat(u.keyringUnavailable()).contains("no Secret Service on the session bus");
        u.remember().set(true);
        u.tryRemembered();
        assertThat(u.busy().get()).isFalse();
        u.unlock(TestVaults.PASSPHRASE.toCharArray());
        assertThat(u.error().get()).isEmpty();
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
    }

    @Test
    void theHealthCheckReportsAHealthyVaultThenADamagedOneAndRefusesAnUnlockedOne() throws Exception {
        ManagedVault v = created("Taxes");
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        FakeMounter.FakeDrive drive = t.fuse.drives.get(0);
        Files.createDirectories(drive.cleartextRoot.resolve("letters"));
        drive.write("letters/bank.txt", "statement");
        VaultOptionsViewModel o = new VaultOptionsViewModel(v, t.service, background, en, keyring);
        o.runHealthCheck(TestVaults.PASSPHRASE.toCharArray());
        assertThat(o.status().get()).startsWith("Lock the vault first");
        t.service.lock(v, false);

        o.runHealthCheck("wrong one!".toCharArray());
        assertThat(o.status().get()).isEqualTo("Wrong passphrase. Please try again.");
        o.runHealthCheck(TestVaults.PASSPHRASE.toCharArray());
        assertThat(o.failed().get()).isFalse();
        assertThat(o.healthReport().get()).startsWith("Healthy: 0 note(s).");

        try (var all = Files.walk(tmp.resolve("Taxes/d"))) {
            for (Path p : all.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals("dirid.c9r"))
                    .filter(p -> p.toString().endsWith(".c9r")).toList()) {
                byte[] b = Files.readAllBytes(p);
                b[b.length - 1] ^= 1; // tampered content: its authentication fails
                Files.write(p, b);
            }
        }
        o.runHealthCheck(TestVaults.PASSPHRASE.toCharArray());
        assertThat(o.failed().get()).isTrue();
        assertThat(o.healthReport().get()).startsWith("Problems found:");
        assertThat(o.healthReport().get().lines().count()).isGreaterThan(2);
    }

    @Test
    void anOrphanFolderIsRepairedIntoLostAndFoundAfterTheCheckPlannedIt() throws Exception {
        ManagedVault v = created("Taxes");
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        FakeMounter.FakeDrive drive = t.fuse.drives.get(0);
        Files.createDirectories(drive.cleartextRoot.resolve("letters"));
        drive.write("letters/bank.txt", "statement");
        t.service.lock(v, false);
        assertThat(TestVaults.orphanEveryFolder(tmp.resolve("Taxes"))).isEqualTo(1);

        VaultOptionsViewModel o = new VaultOptionsViewModel(v, t.service, background, en, keyring);
        o.repair(new char[0]);
        assertThat(o.status().get()).isEqualTo("Enter the passphrase above to repair.");
        o.runHealthCheck(TestVaults.PASSPHRASE.toCharArray());
        assertThat(o.failed().get()).as(o.status().get() + "\n" + o.healthReport().get()).isTrue();
        assertThat(o.plannedRepairs().get()).hasSize(1);
        assertThat(o.repairQuestion()).startsWith("These 1 repair(s) will be made").contains(o.plannedRepairs().get().get(0));
        assertThat(o.healthReport().get()).contains("Repairs (1):");

        o.repair("wrong one!".toCharArray());
        assertThat(o.status().get()).isEqualTo("Wrong passphrase. Please try again.");
        o.repair(TestVaults.PASSPHRASE.toCharArray());
        assertThat(o.failed().get()).as(o.healthReport().get()).isFalse();
        assertThat(o.healthReport().get()).startsWith("Repaired 1 of 1.").contains("Checked again: Healthy");
        assertThat(o.plannedRepairs().get()).isEmpty();

        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        Path lostAndFound = t.fuse.drives.get(1).cleartextRoot.resolve("LOST+FOUND");
        try (var found = Files.walk(lostAndFound)) {
            Path bank = found.filter(p -> p.getFileName() != null && p.getFileName().toString().equals("bank.txt"))
                    .findFirst().orElseThrow(() -> new AssertionError("bank.txt not adopted into LOST+FOUND"));
            assertThat(Files.readString(bank)).isEqualTo("statement");
        }
    }

    @Test
    void aRepairPlannedOnAnOlderCheckIsRefusedWhenTheVaultChanged() throws Exception {
        ManagedVault v = created("Taxes");
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        FakeMounter.FakeDrive drive = t.fuse.drives.get(0);
        Files.createDirectories(drive.cleartextRoot.resolve("a"));
        Files.createDirectories(drive.cleartextRoot.resolve("b"));
        t.service.lock(v, false);
        TestVaults.orphanEveryFolder(tmp.resolve("Taxes"));
        VaultOptionsViewModel o = new VaultOptionsViewModel(v, t.service, background, en, keyring);
        o.runHealthCheck(TestVaults.PASSPHRASE.toCharArray());
        assertThat(o.plannedRepairs().get()).hasSize(2);
        o.plannedRepairs().set(o.plannedRepairs().get().subList(0, 1)); // as if the check had seen only one
        o.repair(TestVaults.PASSPHRASE.toCharArray());
        assertThat(o.status().get()).startsWith("The vault changed since the check: nothing was repaired.");
        o.runHealthCheck(TestVaults.PASSPHRASE.toCharArray());
        assertThat(o.plannedRepairs().get()).hasSize(2); // still both to repair
    }

    @Test
    void germanStringsExistForEveryEnglishKey() throws Exception {
        java.util.Properties enFile = new java.util.Properties();
        java.util.Properties deFile = new java.util.Properties();
        try (var in = Messages.class.getResourceAsStream("messages.properties");
                var de = Messages.class.getResourceAsStream("messages_de.properties")) {
            enFile.load(new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8));
            deFile.load(new java.io.InputStreamReader(de, java.nio.charset.StandardCharsets.UTF_8));
        }
        assertThat(deFile.keySet()).containsExactlyInAnyOrderElementsOf(enFile.keySet());
        assertThat(Messages.of(Locale.GERMAN).get("main.lock")).isEqualTo("Sperren");
    }
}
