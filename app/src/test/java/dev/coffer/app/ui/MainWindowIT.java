package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.os.PassphraseStore;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.TestVaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javafx.scene.control.Button;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The main window's details, redrawn on every change of the vaults (TestFX, Monocle headless): what
 * a redraw replaced stops following the ViewModel.
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
}
