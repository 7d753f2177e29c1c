package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.os.PassphraseStore;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.TestVaults;
import dev.coffer.app.vaults.VaultState;
import dev.coffer.core.vault.CipherCombo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * Core's storage warnings in the main window on unlock, through a real scene (TestFX, Monocle)
 * and a real read-only file system: a vault on a tmpfs remounted read-only unlocks read-only
 * (the drive too) and the details pane says why; a vault on an ordinary folder shows no warning.
 * (Case-insensitive and name-length-limited stores give core's other warnings through the same
 * path; this machine's kernel has neither vfat nor casefolding tmpfs, core and frontend-fuse
 * test those stores.)
 */
class StoreWarningsIT {
    @TempDir
    Path tmp;

    private final FxRobot robot = new FxRobot();
    private TestVaults t;
    private Path tmpfs;

    @AfterEach
    void cleanUp() throws Exception {
        if (t != null) {
            t.service.lockAll(true);
        }
        FxToolkit.cleanupStages();
        if (tmpfs != null) {
            run("umount", tmpfs.toString());
        }
    }

    @Test
    void aReadOnlyVaultFolderUnlocksReadOnlyAndTheDetailsSaySo() throws Exception {
        t = new TestVaults(tmp);
        tmpfs = Files.createDirectories(tmp.resolve("ro"));
        run("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", tmpfs.toString());
        ManagedVault archive = t.service.create(tmpfs, "Archive", TestVaults.PASSPHRASE.toCharArray(),
                CipherCombo.SIV_XTSHMAC).vault();
        ManagedVault daily = t.create("Daily").vault();
        run("mount", "-o", "remount,ro", tmpfs.toString());

        Gui gui = show();
        unlockThroughTheDialog(gui, archive);
        assertThat(archive.readOnlyDrive()).isTrue();
        assertThat(t.fuse.drives.get(0).request.readOnly()).as("the drive is mounted read-only").isTrue();
        Fx.await("the warning in the details", 10, () -> robot.lookup("#details-store-warnings").tryQuery().isPresent());
        assertThat(text(robot.lookup("#details-store-warnings").query())).isEqualTo(
                "The vault folder's file system has limits:\n\u2022 the vault folder cannot be written (the file system is "
                        + "mounted read-only): opened read-only");

        unlockThroughTheDialog(gui, daily);
        assertThat(daily.storeWarnings()).isEmpty();
        assertThat(daily.readOnlyDrive()).isFalse();
        Fx.await("the details of Daily", 10, () -> text(robot.lookup("#details-name").query()).equals("Daily"));
        assertThat(robot.lookup("#details-store-warnings").tryQuery()).isEmpty();

        t.service.lockAll(false);
        Fx.run(() -> gui.mainViewModel().selected().set(archive));
        Fx.await("the locked vault's details", 10, () -> text(robot.lookup("#details-name").query()).equals("Archive")
                && robot.lookup("#details-store-warnings").tryQuery().isEmpty());
    }

    private Gui show() throws Exception {
        GuiContext ctx = new GuiContext(t.service, Messages.of(Locale.ENGLISH), uri -> { }, new FxBackground(),
                Files.createDirectories(tmp.resolve("home")), tmp.resolve("config/coffer.log"),
                PassphraseStore.unavailable("none in this test"));
        Stage stage = FxToolkit.registerPrimaryStage();
        Gui gui = Fx.call(() -> new Gui(ctx));
        Fx.run(() -> gui.show(stage));
        return gui;
    }

    private void unlockThroughTheDialog(Gui gui, ManagedVault v) throws Exception {
        Fx.run(() -> gui.mainViewModel().selected().set(v));
        Fx.call(() -> gui.openUnlock(v));
        Fx.await("the unlock dialog", 10, () -> robot.lookup("#unlock-dialog").tryQuery().isPresent());
        robot.clickOn("#unlock-passphrase").write(TestVaults.PASSPHRASE).type(KeyCode.ENTER);
        Fx.await(v.settings().name() + " unlocked", 30, () -> v.state() == VaultState.UNLOCKED
                && robot.lookup("#unlock-dialog").tryQuery().isEmpty());
    }

    /** The texts of the labels in {@code node}, joined by newlines. */
    private String text(Node node) {
        if (node instanceof Label l) {
            return l.getText();
        }
        List<String> texts = robot.from(node).lookup(".label").queryAllAs(Label.class).stream().map(Label::getText).toList();
        return String.join("\n", texts);
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed (the test runs as root): " + out);
        }
    }
}
