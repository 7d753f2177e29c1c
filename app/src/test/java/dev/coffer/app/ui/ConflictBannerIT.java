package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.os.PassphraseStore;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.TestVaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javafx.geometry.Bounds;
import javafx.scene.control.Button;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/** The conflict banner in the real scene: a notice of a file deep in long-named folders keeps Dismiss in the window; a minimised window is shown again. */
class ConflictBannerIT {
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
    void theDismissButtonOfAVeryLongNoticeIsInsideTheWindow() throws Exception {
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
        StringBuilder deep = new StringBuilder();
        for (int i = 0; i < 19; i++) {
            deep.append('/').append(("folder " + i + " with a long name ").repeat(8));
        }
        String path = deep + "/report.txt";
        Path root = t.fuse.drives.get(0).cleartextRoot;
        TestVaults.orphanedWriter(root, v.settings().folderPath(), path, "written here").close();
        Fx.await("the conflict banner", 10, () -> robot.lookup("#conflict-banner").query().isVisible());
        Button dismiss = robot.lookup("#conflict-dismiss").queryAs(Button.class);
        Bounds b = Fx.call(() -> dismiss.localToScene(dismiss.getBoundsInLocal()));
        double sceneHeight = Fx.call(() -> stage.getScene().getHeight());
        assertThat(b.getMaxY()).as("the Dismiss button is within the window").isLessThanOrEqualTo(sceneHeight);
    }

    /** The app started minimised without a tray iconifies its window: is it brought back for a conflict copy? */
    @Test
    void anIconifiedWindowIsBroughtBackForAConflictCopy() throws Exception {
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
        Fx.run(() -> stage.setIconified(true));
        Fx.await("iconified", 10, stage::isIconified);
        TestVaults.orphanedWriter(t.fuse.drives.get(0).cleartextRoot, v.settings().folderPath(), "/a.txt", "x").close();
        Fx.await("the conflict banner", 10, () -> robot.lookup("#conflict-banner").query().isVisible());
        Thread.sleep(500);
        assertThat(stage.isIconified()).as("brought back (bringToFront)").isFalse();
    }
}
