package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.os.PassphraseStore;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.TestVaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The main window's details, redrawn on every change of the vaults (TestFX, Monocle headless): what
 * a redraw replaced stops following the ViewModel; the conflict banner in the real scene.
 */
class MainWindowIT {
    @TempDir
    Path tmp;

    private final FxRobot robot = new FxRobot();
    private TestVaults t;

    @AfterEach
    void cleanUp() throws Exception {
        if (t != null) {
            t.service.lockAll(true);
        }
        FxToolkit.cleanupStages();
    }

    @Test
    void aLockButtonARedrawReplacedNoLongerFollowsTheBusyState() throws Exception {
        Shown w = unlockedVaultShown();
        Stage stage = w.stage();
        Gui gui = w.gui();
        ManagedVault v = w.vault();
        Button replaced = robot.lookup("#lock-button").queryAs(Button.class);

        MainViewModel main = gui.mainViewModel();
        Fx.run(() -> main.revision().set(main.revision().get() + 1)); // redraws the details
        Fx.await("a new lock button", 10, () -> robot.lookup("#lock-button").tryQuery().filter(b -> b != replaced).isPresent());
        Button shown = robot.lookup("#lock-button").queryAs(Button.class);

        Fx.run(() -> main.busy().set(true));
        assertThat(shown.isDisabled()).as("the lock button shown, while busy").isTrue();
        assertThat(replaced.isDisabled()).as("the lock button a redraw replaced, while busy").isFalse();
        Fx.run(() -> main.busy().set(false));
        assertThat(shown.isDisabled()).isFalse();
    }

    /**
     * A conflict copy made on a FUSE worker's thread (here: the test's) reaches the real scene: the
     * banner says where the writes are, stays through the lock, goes when dismissed, and a window
     * hidden in the tray is shown for the next one.
     */
    @Test
    void aConflictCopyIsShownAboveEverythingUntilDismissed() throws Exception {
        Shown w = unlockedVaultShown();
        Stage stage = w.stage();
        ManagedVault v = w.vault();
        assertThat(robot.lookup("#conflict-banner").query().isVisible()).isFalse();

        Path root = t.fuse.drives.get(0).cleartextRoot;
        TestVaults.orphanedWriter(root, v.settings().folderPath(), "/docs/report.txt", "written here").close();
        Fx.await("the conflict banner", 10, () -> robot.lookup("#conflict-banner").query().isVisible());
        assertThat(robot.lookup("#conflict-notice").queryAs(Label.class).getText()).isEqualTo(
                "\u201creport.txt\u201d in /docs (vault \u201cTaxes\u201d) was changed here while another device replaced or "
                        + "deleted it. What was written here is kept as \u201creport.txt (Conflict 1)\u201d in /docs.");
        Node banner = robot.lookup("#conflict-banner").query();
        assertThat(banner.getBoundsInParent().getHeight()).as("laid out, not collapsed").isPositive();
        Button dismiss = robot.lookup("#conflict-dismiss").queryAs(Button.class);
        assertThat(Fx.call(() -> ((javafx.scene.text.Text) dismiss.lookup(".text")).getText()))
                .as("the long text leaves the button its label").isEqualTo("Dismiss");

        t.service.lock(v, false);
        Fx.await("the unlock button", 10, () -> robot.lookup("#unlock-button").tryQuery().isPresent());
        assertThat(robot.lookup("#conflict-banner").query().isVisible()).as("a lock does not clear it").isTrue();
        robot.clickOn("#conflict-dismiss");
        Fx.await("the banner gone", 10, () -> !robot.lookup("#conflict-banner").query().isVisible());

        Fx.run(stage::hide); // closed to the tray
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        TestVaults.orphanedWriter(t.fuse.drives.get(1).cleartextRoot, v.settings().folderPath(), "/notes.txt", "more").close();
        Fx.await("the window shown again", 10, stage::isShowing);
        assertThat(robot.lookup("#conflict-notice").queryAs(Label.class).getText()).contains("\u201cnotes.txt (Conflict 1)\u201d");
    }

    /** A very long notice (a file deep in long-named folders) keeps Dismiss inside the window. */
    @Test
    void theDismissButtonOfAVeryLongNoticeIsInsideTheWindow() throws Exception {
        Shown w = unlockedVaultShown();
        StringBuilder deep = new StringBuilder();
        for (int i = 0; i < 19; i++) {
            deep.append('/').append(("folder " + i + " with a long name ").repeat(8));
        }
        TestVaults.orphanedWriter(t.fuse.drives.get(0).cleartextRoot, w.vault().settings().folderPath(), deep + "/report.txt",
                "written here").close();
        Fx.await("the conflict banner", 10, () -> robot.lookup("#conflict-banner").query().isVisible());
        Button dismiss = robot.lookup("#conflict-dismiss").queryAs(Button.class);
        Bounds b = Fx.call(() -> dismiss.localToScene(dismiss.getBoundsInLocal()));
        double sceneHeight = Fx.call(() -> w.stage().getScene().getHeight());
        assertThat(b.getMaxY()).as("the Dismiss button is within the window").isLessThanOrEqualTo(sceneHeight);
    }

    /** A minimised window (started minimised without a tray) is shown again for a conflict copy. */
    @Test
    void anIconifiedWindowIsBroughtBackForAConflictCopy() throws Exception {
        Shown w = unlockedVaultShown();
        Fx.run(() -> w.stage().setIconified(true));
        Fx.await("iconified", 10, w.stage()::isIconified);
        TestVaults.orphanedWriter(t.fuse.drives.get(0).cleartextRoot, w.vault().settings().folderPath(), "/a.txt", "x").close();
        Fx.await("the conflict banner", 10, () -> robot.lookup("#conflict-banner").query().isVisible());
        Thread.sleep(500);
        assertThat(w.stage().isIconified()).as("brought back").isFalse();
    }

    /** The window, its Gui and a vault named "Taxes", unlocked and shown with its lock button. */
    private record Shown(Stage stage, Gui gui, ManagedVault vault) {}

    private Shown unlockedVaultShown() throws Exception {
        t = new TestVaults(tmp);
        GuiContext ctx = new GuiContext(t.service, Messages.of(Locale.ENGLISH), uri -> { }, new FxBackground(),
                Files.createDirectories(tmp.resolve("home")), tmp.resolve("config/coffer.log"),
                PassphraseStore.unavailable("none in tests"));
        Stage stage = FxToolkit.registerPrimaryStage();
        Gui gui = Fx.call(() -> new Gui(ctx));
        Fx.run(() -> gui.show(stage));
        ManagedVault v = t.create("Taxes").vault();
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        Fx.await("the lock button", 10, () -> robot.lookup("#lock-button").tryQuery().isPresent());
        return new Shown(stage, gui, v);
    }
}
