package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.os.PassphraseStore;
import dev.coffer.app.os.DesktopSession;
import dev.coffer.app.os.SystemKeyring;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.TestVaults;
import dev.coffer.app.vaults.VaultState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * "Remember in the system keyring" through real scenes (TestFX, Monocle headless) and a real
 * Secret Service (GNOME Keyring on a private D-Bus session): unlock with the box ticked stores the
 * passphrase, the next unlock uses it without typing, "Forget the remembered passphrase" in the
 * options deletes it, and the application started with "unlock at startup" unlocks (a real FUSE
 * mount) with the remembered passphrase and no dialog left open.
 */
class KeyringGuiIT {
    @TempDir
    static Path sessionDir;

    private static DesktopSession session;

    @TempDir
    Path tmp;

    private final FxRobot robot = new FxRobot();
    private TestVaults t;
    private PassphraseStore keyring;

    @BeforeAll
    static void startSecretService() throws Exception {
        session = DesktopSession.start(sessionDir);
    }

    @AfterAll
    static void stopSecretService() {
        session.close();
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (t != null) {
            t.service.lockAll(true);
        }
        if (keyring != null) {
            keyring.close();
        }
        FxToolkit.cleanupStages();
    }

    @Test
    void rememberedPassphraseUnlocksWithoutTypingUntilItIsForgotten() throws Exception {
        t = new TestVaults(tmp);
        keyring = SystemKeyring.open();
        assertThat(keyring.unavailableReason()).as("the Secret Service is reachable").isEmpty();
        GuiContext ctx = new GuiContext(t.service, Messages.of(Locale.ENGLISH), uri -> { }, new FxBackground(),
                Files.createDirectories(tmp.resolve("home")), tmp.resolve("config/coffer.log"), keyring);
        Stage stage = FxToolkit.registerPrimaryStage();
        Gui gui = Fx.call(() -> new Gui(ctx));
        Fx.run(() -> gui.show(stage));
        ManagedVault v = t.create("Daily").vault();

        // first unlock: typed, with "remember" ticked
        Fx.call(() -> gui.openUnlock(v));
        Fx.await("the unlock dialog", 10, () -> unlockDialogs().size() == 1);
        assertThat(robot.lookup("#unlock-remember").queryAs(CheckBox.class).isDisabled()).isFalse();
        robot.clickOn("#unlock-remember");
        robot.clickOn("#unlock-passphrase").write(TestVaults.PASSPHRASE).type(KeyCode.ENTER);
        Fx.await("the vault unlocked", 30, () -> v.state() == VaultState.UNLOCKED && unlockDialogs().isEmpty());
        Fx.await("the passphrase in the keyring", 10,
                () -> lookup(v).equals(TestVaults.PASSPHRASE));
        t.service.lock(v, false);

        // next unlock: the dialog uses the remembered passphrase and closes by itself
        Fx.call(() -> gui.openUnlock(v));
        Fx.await("the vault unlocked without typing", 30, () -> v.state() == VaultState.UNLOCKED && unlockDialogs().isEmpty());
        t.service.lock(v, false);

        // forget it in the vault's options
        Fx.run(() -> gui.mainViewModel().selected().set(v));
        Fx.call(() -> gui.openOptions(v));
        Fx.await("the forget button enabled", 10, () -> robot.lookup("#options-forget").tryQuery()
                .map(n -> !n.isDisabled()).orElse(false));
        robot.clickOn("#options-forget");
        Fx.await("the passphrase forgotten", 10, () -> robot.lookup("#options-status").queryAs(Label.class).getText()
                .startsWith("The passphrase is no longer remembered"));
        assertThat(lookup(v)).isEmpty();
        assertThat(robot.lookup("#options-forget").query().isDisabled()).isTrue();
        robot.clickOn("#options-close");

        // now the dialog asks again
        Fx.call(() -> gui.openUnlock(v));
        Fx.await("the unlock dialog", 10, () -> unlockDialogs().size() == 1);
        Thread.sleep(1000); // time enough for a remembered passphrase to have been tried
        Fx.await("the dialog still open and the vault locked", 5, () -> unlockDialogs().size() == 1
                && v.state() == VaultState.LOCKED);
        assertThat(robot.lookup("#unlock-remember").queryAs(CheckBox.class).isSelected()).isFalse();
    }

    @Test
    void unlockAtStartupUsesTheRememberedPassphrase() throws Exception {
        Path config = tmp.resolve("config");
        t = new TestVaults(tmp); // writes tmp/config/settings.json
        ManagedVault v = t.create("Startup").vault();
        t.service.update(v, s -> s.withUnlockAtStartup(true).withRevealAfterUnlock(false));
        keyring = SystemKeyring.open();
        keyring.save(v.id(), TestVaults.PASSPHRASE.toCharArray());
        t.service.lockAll(true);
        t = null;

        // the app's drives go under user.home/.local/share/coffer/mnt: keep them in the temp folder
        String realHome = System.getProperty("user.home");
        System.setProperty("user.home", Files.createDirectories(tmp.resolve("home")).toString());
        CofferApp.prepare(config, null);
        Stage stage = FxToolkit.registerPrimaryStage();
        CofferApp app = (CofferApp) FxToolkit.setupApplication(CofferApp.class);
        try {
            Fx.await("the main window", 10, () -> stage.isShowing() && app.gui() != null);
            ManagedVault started = app.gui().mainViewModel().vaults().get(0);
            // the dialog closes once the unlock it started with the remembered passphrase has finished
            Fx.await("the vault unlocked at startup and its dialog closed", 60,
                    () -> started.state() == VaultState.UNLOCKED && unlockDialogs().isEmpty());
            Path drive = Path.of(started.drive().orElseThrow().location());
            assertThat(drive).startsWith(tmp.resolve("home"));
            Files.writeString(drive.resolve("note.txt"), "written through the drive");
            assertThat(Files.readString(drive.resolve("note.txt"))).isEqualTo("written through the drive");
        } finally {
            FxToolkit.cleanupApplication(app); // locks: unmounts the drive
            FxToolkit.cleanupStages();
            System.setProperty("user.home", realHome);
        }
    }

    private static String lookup(ManagedVault v) {
        try {
            return session.lookup("service", "Coffer", "account", v.id());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static List<Window> unlockDialogs() {
        return Window.getWindows().stream().filter(w -> w.isShowing() && w.getScene() != null
                && "unlock-dialog".equals(w.getScene().getRoot().getId())).toList();
    }
}
