package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.os.TrayDesktop;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.TestVaults;
import dev.coffer.app.vaults.VaultState;
import java.awt.EventQueue;
import java.awt.MenuItem;
import java.awt.PopupMenu;
import java.awt.SystemTray;
import java.awt.TrayIcon;
import java.awt.event.ActionEvent;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.stage.WindowEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The tray icon in a real tray: Xvfb with trayer (a freedesktop tray host), AWT's SystemTray on it
 * (this class's JVM is not headless: failsafe starts a JVM per test class, app/pom.xml gives it
 * the DISPLAY), the application as a launch runs it (JavaFX itself stays on Monocle). The icon is
 * embedded in trayer's panel; its menu unlocks and locks each vault (real FUSE drives), shows the
 * window, locks all (offering to force a vault with files open), and quits (locks, then exits); closing the window with a vault unlocked hides it, keeps the app
 * running and says so once. Xvfb and trayer end with this class's JVM ({@link TrayDesktop}).
 */
class TrayIT {
    static {
        System.setProperty("java.awt.headless", "false"); // before anything touches AWT in this JVM
    }

    private static final String DASH = " \u2013 ";

    @TempDir
    static Path desktopLogs;

    private static TrayDesktop desktop;

    @TempDir
    Path tmp;

    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void startDesktop() throws Exception {
        desktop = TrayDesktop.start(desktopLogs);
    }

    @Test
    void theTrayMenuUnlocksLocksShowsAndQuitsAndClosingTheWindowKeepsTheAppRunning() throws Exception {
        TestVaults setup = new TestVaults(tmp); // writes tmp/config/settings.json
        for (String name : List.of("Daily", "Work")) {
            setup.service.update(setup.create(name).vault(), s -> s.withRevealAfterUnlock(false));
        }
        String realHome = System.getProperty("user.home");
        System.setProperty("user.home", Files.createDirectories(tmp.resolve("home")).toString()); // drives go below it
        java.util.concurrent.atomic.AtomicInteger exits = new java.util.concurrent.atomic.AtomicInteger();
        CofferApp.prepare(tmp.resolve("config"), null, exits::incrementAndGet); // Platform.exit would end TestFX too
        Stage stage = FxToolkit.registerPrimaryStage();
        CofferApp app = (CofferApp) FxToolkit.setupApplication(CofferApp.class);
        try {
            Fx.await("the main window", 10, () -> stage.isShowing() && app.gui() != null);
            assertThat(SystemTray.isSupported()).as("AWT sees trayer's tray").isTrue();
            assertThat(app.tray()).as("the icon installed").isPresent();
            TrayIcon icon = app.tray().get().icon();
            assertThat(SystemTray.getSystemTray().getTrayIcons()).containsExactly(icon);
            assertThat(icon.getToolTip()).isEqualTo("Coffer");
            awaitTrue("the icon embedded in trayer's panel", () -> desktop.trayContents().contains("JavaEmbeddedFrame"));
            Fx.await("the menu", 10, () -> labels(icon).equals(List.of("Daily" + DASH + "Locked", "Work" + DASH + "Locked",
                    "-", "Show Coffer", "Lock all", "-", "Lock all and quit")));
            ManagedVault daily = vault(app, "Daily");
            ManagedVault work = vault(app, "Work");

            // a locked vault's item opens its unlock dialog
            unlockFromTray(icon, "Daily" + DASH + "Locked", daily);
            Fx.await("the menu to say unlocked", 10, () -> labels(icon).contains("Daily" + DASH + "Unlocked"));

            // closing the window with a vault unlocked: hidden, still running, said once
            close(stage);
            Fx.await("the window hidden", 10, () -> !stage.isShowing());
            assertThat(app.tray().get().noticesShown()).isEqualTo(1);
            assertThat(daily.state()).isEqualTo(VaultState.UNLOCKED);
            click(icon, "Show Coffer");
            Fx.await("the window shown again", 10, stage::isShowing);
            close(stage);
            Fx.await("the window hidden again", 10, () -> !stage.isShowing());
            assertThat(app.tray().get().noticesShown()).as("the notice is shown once").isEqualTo(1);
            click(icon, "Show Coffer");
            Fx.await("the window shown again", 10, stage::isShowing);

            // an unlocked vault's item locks it
            click(icon, "Daily" + DASH + "Unlocked");
            Fx.await("Daily locked from the tray", 30, () -> daily.state() == VaultState.LOCKED);

            // lock all: a vault with a file open stays unlocked, is named, and is offered the forced lock
            unlockFromTray(icon, "Daily" + DASH + "Locked", daily);
            unlockFromTray(icon, "Work" + DASH + "Locked", work);
            Path workDrive = Path.of(work.drive().orElseThrow().location());
            Files.writeString(workDrive.resolve("open.txt"), "held open");
            close(stage);
            Fx.await("the window hidden before lock all", 10, () -> !stage.isShowing());
            try (FileChannel open = FileChannel.open(workDrive.resolve("open.txt"), StandardOpenOption.READ)) {
                click(icon, "Lock all");
                Fx.await("the offer to force Work's lock", 30, () -> robot.lookup("#confirm-force-lock").tryQuery().isPresent());
                assertThat(daily.state()).isEqualTo(VaultState.LOCKED);
                assertThat(work.state()).isEqualTo(VaultState.UNLOCKED);
                assertThat(stage.isShowing()).as("the window shown again to say so").isTrue();
                assertThat(app.gui().mainViewModel().notice().get()).contains("Work").contains("files open");
                assertThat(robot.lookup(".label").queryAllAs(Label.class)).extracting(Label::getText)
                        .anyMatch(text -> text.contains("\u201cWork\u201d"));
                assertThat(open.size()).as("still served while asked").isEqualTo("held open".length());
                robot.clickOn("#confirm-force-lock");
            }
            Fx.await("Work locked by force from the tray", 30, () -> work.state() == VaultState.LOCKED);
            assertThat(robot.lookup("#confirm-force-lock").tryQuery()).isEmpty();

            // quit: locks and ends the application
            unlockFromTray(icon, "Work" + DASH + "Locked", work);
            click(icon, "Lock all and quit");
            awaitTrue("the application asked to exit", () -> exits.get() == 1);
            assertThat(work.state()).isEqualTo(VaultState.LOCKED);
        } finally {
            FxToolkit.cleanupApplication(app); // stop(): what JavaFX runs after the exit
            FxToolkit.cleanupStages();
            System.setProperty("user.home", realHome);
        }
        assertThat(SystemTray.getSystemTray().getTrayIcons()).isEmpty();
    }

    private void unlockFromTray(TrayIcon icon, String item, ManagedVault v) throws Exception {
        Fx.await("the menu item " + item, 10, () -> labels(icon).contains(item));
        click(icon, item);
        Fx.await("the unlock dialog of " + v.settings().name(), 10, () -> unlockDialogs() == 1);
        robot.clickOn("#unlock-passphrase").write(TestVaults.PASSPHRASE).type(KeyCode.ENTER);
        Fx.await(v.settings().name() + " unlocked and its dialog closed", 60,
                () -> v.state() == VaultState.UNLOCKED && unlockDialogs() == 0);
    }

    private static long unlockDialogs() {
        return Window.getWindows().stream().filter(w -> w.isShowing() && w.getScene() != null
                && "unlock-dialog".equals(w.getScene().getRoot().getId())).count();
    }

    private static ManagedVault vault(CofferApp app, String name) {
        return app.gui().mainViewModel().vaults().stream().filter(v -> v.settings().name().equals(name)).findFirst()
                .orElseThrow();
    }

    private static void close(Stage stage) throws Exception {
        Fx.run(() -> stage.fireEvent(new WindowEvent(stage, WindowEvent.WINDOW_CLOSE_REQUEST)));
    }

    /** The menu's labels ("-" for a separator), read on AWT's thread. */
    private static List<String> labels(TrayIcon icon) {
        List<String> labels = new ArrayList<>();
        try {
            EventQueue.invokeAndWait(() -> {
                PopupMenu menu = icon.getPopupMenu();
                for (int i = 0; i < menu.getItemCount(); i++) {
                    labels.add(menu.getItem(i).getLabel());
                }
            });
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return labels;
    }

    /** Chooses a menu item as a click does: an action event to the item, on AWT's thread. */
    private static void click(TrayIcon icon, String label) throws Exception {
        EventQueue.invokeAndWait(() -> {
            PopupMenu menu = icon.getPopupMenu();
            for (int i = 0; i < menu.getItemCount(); i++) {
                MenuItem item = menu.getItem(i);
                if (item.getLabel().equals(label)) {
                    item.dispatchEvent(new ActionEvent(item, ActionEvent.ACTION_PERFORMED, item.getActionCommand()));
                    return;
                }
            }
            throw new AssertionError("no menu item " + label);
        });
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static void awaitTrue(String what, Check check) throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!check.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after 20 s waiting for: " + what);
            }
            Thread.sleep(100);
        }
    }
}
