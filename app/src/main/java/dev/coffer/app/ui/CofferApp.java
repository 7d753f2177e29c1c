package dev.coffer.app.ui;

import dev.coffer.app.os.DesktopTheme;
import dev.coffer.app.os.ErrorMessages;
import dev.coffer.app.os.LogFile;
import dev.coffer.app.os.PassphraseStore;
import dev.coffer.app.os.SingleInstance;
import dev.coffer.app.os.SystemKeyring;
import dev.coffer.app.os.Tray;
import dev.coffer.app.os.XdgOpen;
import dev.coffer.app.vaults.AutoLock;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.Mounters;
import dev.coffer.app.vaults.OpenFilesProbe;
import dev.coffer.app.vaults.Preferences;
import dev.coffer.app.vaults.SettingsStore;
import dev.coffer.app.vaults.VaultService;
import dev.coffer.app.vaults.VaultState;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.stage.Stage;
import javafx.stage.WindowEvent;

/**
 * The GUI application's lifecycle: builds the service and the window from the config folder,
 * becomes the single running instance (forwarded vault paths open their unlock dialog), ticks
 * auto-lock every 30 seconds, keeps running in the tray when the window closes with unlocked
 * vaults (or, without a tray, asks to lock them first), follows the desktop's light/dark
 * preference while running, and locks every vault on the way out.
 *
 * <p>Not responsible for the windows' content ({@link Gui}) or for deciding between GUI and
 * command line ({@code dev.coffer.app.Main}).
 */
public final class CofferApp extends Application {
    private static final long AUTO_LOCK_TICK_SECONDS = 30;
    /** How long SIGTERM waits for the FX thread to hide the dialogs: it may be gone or blocked. */
    private static final java.time.Duration DIALOGS_WIPE_BOUND = java.time.Duration.ofSeconds(2);

    /** What {@link #launch} was asked for; JavaFX creates the Application itself, so it is handed over statically. */
    private record Request(Path configFolder, Path vault, Runnable exit) {}

    private static volatile Request request;

    private VaultService service;
    private Gui gui;
    private Messages messages;
    private FxBackground background;
    private SingleInstance instance;
    private PassphraseStore keyring;
    private Optional<DesktopTheme> desktopTheme = Optional.empty();
    private Optional<Tray> tray = Optional.empty();
    private ScheduledExecutorService timer;
    private boolean trayNoticeShown;
    /** Set once stop() has hidden the dialogs: the FX thread is gone then, and SIGTERM has nothing left to wipe. */
    private volatile boolean stopped;
    private Runnable onTerminate;

    /** Runs the GUI until it quits; {@code vault} (may be null) gets its unlock dialog. */
    public static void launch(Path configFolder, Path vault) {
        prepare(configFolder, vault);
        Application.launch(CofferApp.class);
    }

    /** What the next {@link #start} uses (tests start the application through TestFX instead of launch). */
    static void prepare(Path configFolder, Path vault) {
        prepare(configFolder, vault, Platform::exit);
    }

    /**
     * As {@link #prepare(Path, Path)}, with what quitting ends with once every vault is locked: {@link
     * Platform#exit} in the app; a test that shares its JavaFX runtime with TestFX records it instead.
     */
    static void prepare(Path configFolder, Path vault, Runnable exit) {
        request = new Request(configFolder, vault, exit);
    }

    Gui gui() {
        return gui;
    }

    /** The tray icon, if the desktop has a tray. */
    Optional<Tray> tray() {
        return tray;
    }

    @Override
    public void start(Stage stage) throws IOException {
        ErrorMessages.inEnglish(); // again: the toolkit's GTK has set the whole C locale from the environment
        Request r = request;
        Path home = Path.of(System.getProperty("user.home"));
        service = new VaultService(new SettingsStore(r.configFolder()), Mounters.defaults(), Clock.systemUTC(),
                defaultMountFolder(System.getenv(), home), VaultCreationOptions.defaults().scryptCostParam());
        Preferences prefs = service.preferences();
        LogFile.start(r.configFolder(), prefs.debugLogging());
        messages = Messages.forLanguage(prefs.language());
        background = new FxBackground();
        keyring = SystemKeyring.open();
        gui = new Gui(new GuiContext(service, messages, new XdgOpen(), background, home,
                r.configFolder().resolve(LogFile.NAME), keyring));
        instance = SingleInstance.listen(r.configFolder(), args -> Platform.runLater(() -> openForwarded(args)));
        tray = Tray.install(messages.get("app.name"), new Tray.Actions(
                messages.get("tray.show"), () -> Platform.runLater(gui::bringToFront),
                messages.get("main.lockAll"), () -> Platform.runLater(gui::lockAll),
                messages.get("main.quit.lockAll"), () -> Platform.runLater(this::quit)));
        Platform.setImplicitExit(false);
        service.addListener(() -> Platform.runLater(this::serviceChanged));
        // SIGTERM (logout, kill) skips stop(): wipe the open dialogs and lock there too, so no secret
        // stays on screen or the clipboard and no drive outlives the app
        onTerminate = this::wipeAndLock;
        Runtime.getRuntime().addShutdownHook(new Thread(onTerminate, "coffer-wipe-and-lock-on-exit"));
        stage.setOnCloseRequest(this::onClose);
        gui.show(stage);
        desktopTheme = DesktopTheme.watch(dark -> Platform.runLater(() -> gui.systemThemeChanged(dark)));
        if (prefs.startMinimised()) {
            tray.ifPresentOrElse(t -> stage.hide(), () -> stage.setIconified(true));
        }
        serviceChanged();
        // "unlock at startup": the dialog tries the passphrase remembered in the keyring first, else asks
        service.vaults().stream().filter(v -> v.settings().unlockAtStartup()).forEach(gui::openUnlock);
        if (r.vault() != null) {
            gui.openVault(r.vault());
        }
        AutoLock autoLock = new AutoLock(service, OpenFilesProbe.system());
        timer = Executors.newSingleThreadScheduledExecutor(t -> {
            Thread thread = new Thread(t, "coffer-auto-lock");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(autoLock::tick, AUTO_LOCK_TICK_SECONDS, AUTO_LOCK_TICK_SECONDS, TimeUnit.SECONDS);
    }

    /** {@code $XDG_DATA_HOME/coffer/mnt}, else {@code ~/.local/share/coffer/mnt}: one folder per unlocked vault. */
    static Path defaultMountFolder(Map<String, String> env, Path home) {
        String data = env.get("XDG_DATA_HOME");
        Path base = data != null && !data.isEmpty() && Path.of(data).isAbsolute() ? Path.of(data)
                : home.resolve(".local").resolve("share");
        return base.resolve("coffer").resolve("mnt");
    }

    private void openForwarded(List<String> args) {
        if (args.isEmpty()) {
            gui.bringToFront();
        } else {
            args.forEach(a -> gui.openVault(Path.of(a)));
        }
    }

    private void serviceChanged() {
        LogFile.setDebug(service.preferences().debugLogging());
        tray.ifPresent(t -> t.update(service.vaults().stream().map(this::trayEntry).toList()));
    }

    private Tray.Entry trayEntry(ManagedVault v) {
        String label = v.settings().name() + " \u2013 " + messages.get("state." + v.state().name());
        return new Tray.Entry(label, () -> Platform.runLater(() -> {
            if (v.state() == VaultState.UNLOCKED) {
                gui.mainViewModel().selected().set(v);
                gui.mainViewModel().lockSelected();
            } else if (v.state() == VaultState.LOCKED || v.state() == VaultState.ERROR) {
                gui.bringToFront();
                gui.openUnlock(v);
            }
        }));
    }

    private boolean anyUnlocked() {
        return service.vaults().stream().anyMatch(v -> v.state() != VaultState.LOCKED && v.state() != VaultState.ERROR);
    }

    private void onClose(WindowEvent e) {
        if (!anyUnlocked()) {
            quit();
            return;
        }
        e.consume();
        if (tray.isPresent()) {
            gui.stage().hide();
            if (!trayNoticeShown) {
                trayNoticeShown = true;
                tray.get().notify(messages.get("app.name"), messages.get("main.trayNotice"));
            }
        } else if (gui.confirm(messages.get("main.lockAll"), messages.get("main.noTray"), messages.get("main.quit.lockAll"),
                "confirm-quit")) {
            quit();
        }
    }

    /** What the shutdown hook runs (tests run it as SIGTERM would). */
    Runnable onTerminate() {
        return onTerminate;
    }

    /** SIGTERM: as stop() does, the dialogs let go of their secrets (bounded wait), then every vault is locked. */
    private void wipeAndLock() {
        if (!stopped) {
            FxBeforeExit.run(this::hideDialogs, DIALOGS_WIPE_BOUND);
        }
        service.lockAll(true);
    }

    /**
     * Hides every window but the main one: their handlers for being hidden wipe the passphrase fields
     * and take the wizard's recovery words off the screen and the clipboard.
     */
    private void hideDialogs() {
        for (javafx.stage.Window w : List.copyOf(javafx.stage.Window.getWindows())) {
            if (w != gui.stage()) {
                w.hide();
            }
        }
    }

    /** Locks everything (asking before forcing busy drives), then exits. */
    private void quit() {
        List<String> busy = gui.mainViewModel().lockAll(false);
        if (!busy.isEmpty() && !gui.confirm(messages.get("main.forceLock.title"),
                messages.get("main.quit.busy", String.join(", ", busy)), messages.get("main.forceLock.force"), "confirm-quit-force")) {
            return;
        }
        request.exit().run();
    }

    @Override
    public void stop() throws IOException {
        // Quitting (Platform.exit) does not hide the dialogs still open before this runs, so their
        // handlers for being hidden did not run: the passphrase fields kept their arrays, the wizard
        // its recovery words on the clipboard. Hidden here, they let go of them.
        hideDialogs();
        stopped = true;
        service.lockAll(true); // never leave a drive mounted behind a closed app
        tray.ifPresent(Tray::remove);
        if (timer != null) {
            timer.shutdownNow();
        }
        background.close();
        keyring.close();
        desktopTheme.ifPresent(DesktopTheme::close);
        instance.close();
    }
}
