package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.os.DesktopSession;
import dev.coffer.app.os.DesktopTheme;
import dev.coffer.app.os.PassphraseStore;
import dev.coffer.app.vaults.Preferences;
import dev.coffer.app.vaults.TestVaults;
import dev.coffer.app.vaults.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * "Follow the system" while the app runs: GNOME's color-scheme flipped with {@code gsettings set}
 * in a private desktop session (D-Bus + dconf, {@link DesktopSession}) reaches {@link DesktopTheme}'s
 * {@code gsettings monitor} and restyles every open window (TestFX, Monocle); with an explicit
 * theme chosen, a flip changes nothing; closing the watch ends the monitor.
 */
class SystemThemeIT {
    private static final String SCHEMA = "org.gnome.desktop.interface";

    @TempDir
    Path tmp;

    private final FxRobot robot = new FxRobot();

    @Test
    void aColorSchemeChangeRestylesEveryWindowWhileFollowingTheSystem() throws Exception {
        TestVaults t = new TestVaults(tmp);
        try (DesktopSession session = DesktopSession.start(tmp.resolve("session"))) {
            session.gsettingsSet(SCHEMA, "color-scheme", "default");
            assertThat(t.service.preferences().theme()).isEqualTo(Theme.SYSTEM);
            GuiContext ctx = new GuiContext(t.service, Messages.of(Locale.ENGLISH), uri -> { }, new FxBackground(),
                    Files.createDirectories(tmp.resolve("home")), tmp.resolve("config/coffer.log"),
                    PassphraseStore.unavailable("none in this test"));
            Stage stage = FxToolkit.registerPrimaryStage();
            Gui gui = Fx.call(() -> new Gui(ctx));
            Fx.run(() -> gui.show(stage));
            Fx.run(() -> gui.systemThemeChanged(false)); // what the app read at start: light
            // Fired on the FX thread: a robot click measures the button's bounds on this thread, which
            // raced the restyle's layout pulse (an IndexOutOfBoundsException inside JavaFX, CI 15:2x).
            Fx.run(() -> robot.lookup("#preferences-button").queryButton().fire());
            Fx.await("the preferences", 10, () -> robot.lookup("#prefs-dialog").tryQuery().isPresent());
            Scene prefs = robot.lookup("#prefs-dialog").query().getScene();

            DesktopTheme watch = DesktopTheme.watch(session.command(DesktopTheme.MONITOR.toArray(String[]::new)),
                    dark -> Platform.runLater(() -> gui.systemThemeChanged(dark))).orElseThrow();
            try {
                Thread.sleep(1000); // the monitor subscribes to dconf before the first change
                session.gsettingsSet(SCHEMA, "color-scheme", "prefer-dark");
                Fx.await("both windows dark", 10, () -> dark(stage.getScene()) && dark(prefs));
                session.gsettingsSet(SCHEMA, "color-scheme", "default");
                Fx.await("both windows light again", 10, () -> !dark(stage.getScene()) && !dark(prefs));

                // an explicit theme is not overridden by the desktop
                var p = t.service.preferences();
                t.service.updatePreferences(new Preferences(Theme.LIGHT, p.startMinimised(), p.defaultMountMethod(),
                        p.webDavPort(), p.autoLockMinutesDefault(), p.language(), p.debugLogging()));
                session.gsettingsSet(SCHEMA, "color-scheme", "prefer-dark");
                Thread.sleep(1000);
                Fx.await("still light", 5, () -> !dark(stage.getScene()) && !dark(prefs));
            } finally {
                watch.close();
            }
            Fx.await("the monitor ended", 10, () -> !watch.watching());
        } finally {
            t.service.lockAll(true);
            FxToolkit.cleanupStages();
        }
    }

    private static boolean dark(Scene scene) {
        return scene.getStylesheets().stream().anyMatch(s -> s.endsWith("dark.css"))
                && scene.getRoot().getStyleClass().contains("dark");
    }
}
