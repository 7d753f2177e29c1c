package dev.coffer.app.ui;

import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.Theme;
import dev.coffer.app.vaults.VaultState;
import java.io.File;
import java.nio.file.Path;
import java.util.Optional;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.input.KeyCombination;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Stage;

/**
 * The GUI's wiring: builds the main window on a stage, opens the dialogs (unlock, create, options,
 * preferences, confirmations), asks about a forced lock when the ViewModel offers one, and
 * re-styles every window when the theme preference changes. One per application.
 *
 * <p>Not responsible for the application's lifecycle (tray, quitting, single instance: {@code
 * CofferApp}) or for any logic (the ViewModels).
 */
public final class Gui {
    private final GuiContext ctx;
    private final Messages m;
    private final MainViewModel main;
    private Stage stage;
    private Theme styledWith;

    public Gui(GuiContext ctx) {
        this.ctx = ctx;
        this.m = ctx.messages();
        this.main = new MainViewModel(ctx.service(), ctx.background(), m, ctx.fileManager(), Platform::runLater);
        main.forceLockOffer().addListener((o, a, v) -> {
            if (v != null) {
                Platform.runLater(() -> askForceLock(v));
            }
        });
        ctx.service().addListener(() -> Platform.runLater(this::restyle));
        main.conflictNotice().addListener((o, a, text) -> {
            // A window hidden in the tray or minimised would keep the person from learning where their
            // writes went; it is shown, not brought to the front (no focus taken from their work).
            if (!text.isEmpty() && stage != null && (!stage.isShowing() || stage.isIconified())) {
                stage.setIconified(false);
                stage.show();
            }
        });
    }

    public MainViewModel mainViewModel() {
        return main;
    }

    public Stage stage() {
        return stage;
    }

    /** Shows the main window on {@code primary}. */
    public void show(Stage primary) {
        this.stage = primary;
        primary.setTitle(m.get("main.title"));
        primary.getIcons().setAll(AppIcons.windowIcons());
        Scene scene = new Scene(new MainWindow(this, main).build(), 920, 580);
        styledWith = theme();
        Themes.apply(scene, styledWith);
        addShortcuts(scene);
        primary.setScene(scene);
        primary.setMinWidth(720);
        primary.setMinHeight(460);
        primary.show();
    }

    /** Ctrl+N create, Ctrl+O open existing, Ctrl+U unlock, Ctrl+L lock, Ctrl+R reveal, Ctrl+, preferences. */
    private void addShortcuts(Scene scene) {
        var keys = scene.getAccelerators();
        keys.put(KeyCombination.keyCombination("Shortcut+N"), this::openCreate);
        keys.put(KeyCombination.keyCombination("Shortcut+O"), this::chooseExisting);
        keys.put(KeyCombination.keyCombination("Shortcut+U"), () -> {
            ManagedVault v = main.selected().get();
            if (v != null && (v.state() == VaultState.LOCKED || v.state() == VaultState.ERROR)) {
                openUnlock(v);
            }
        });
        keys.put(KeyCombination.keyCombination("Shortcut+L"), main::lockSelected);
        keys.put(KeyCombination.keyCombination("Shortcut+R"), main::revealSelected);
        keys.put(KeyCombination.keyCombination("Shortcut+Comma"), this::openPreferences);
    }

    Theme theme() {
        return ctx.service().preferences().theme();
    }

    /**
     * The desktop switched between light and dark (GNOME's color-scheme, watched while the app
     * runs): with "follow the system", every window is restyled at once. On the FX thread.
     */
    public void systemThemeChanged(boolean dark) {
        Themes.systemPrefersDark(dark);
        if (theme() == Theme.SYSTEM) {
            restyleAll();
        }
    }

    private void restyle() {
        if (theme() == styledWith) {
            return; // most service events are state changes, not a new theme
        }
        restyleAll();
    }

    private void restyleAll() {
        styledWith = theme();
        for (javafx.stage.Window w : javafx.stage.Window.getWindows()) {
            if (w.getScene() != null && w.getScene().getStylesheets().stream().anyMatch(s -> s.endsWith("base.css"))) {
                Themes.apply(w.getScene(), theme());
            }
        }
    }

    /** A vault given on the command line or forwarded by a second launch: add it if new, then offer to unlock. */
    public void openVault(Path folderOrConfig) {
        ManagedVault v = main.addExisting(folderOrConfig);
        if (v != null) {
            bringToFront();
            if (v.state() == VaultState.LOCKED || v.state() == VaultState.ERROR) {
                openUnlock(v);
            }
        }
    }

    public void bringToFront() {
        if (stage != null) {
            stage.setIconified(false);
            stage.show();
            stage.toFront();
        }
    }

    public UnlockDialog openUnlock(ManagedVault v) {
        UnlockViewModel vm = new UnlockViewModel(v, ctx.service(), ctx.background(), m, ctx.fileManager(), ctx.keyring());
        UnlockDialog d = new UnlockDialog(vm, stage, theme());
        d.show();
        vm.tryRemembered();
        return d;
    }

    public CreateVaultWizard openCreate() {
        CreateVaultViewModel vm = new CreateVaultViewModel(ctx.service(), ctx.background(), m, ctx.home());
        CreateVaultWizard w = new CreateVaultWizard(vm, stage, theme());
        vm.created().addListener((o, a, v) -> {
            if (v != null) {
                main.selected().set(v);
            }
        });
        w.show();
        return w;
    }

    public VaultOptionsDialog openOptions(ManagedVault v) {
        VaultOptionsDialog d = new VaultOptionsDialog(new VaultOptionsViewModel(v, ctx.service(), ctx.background(), m,
                ctx.keyring()), stage, theme());
        d.show();
        return d;
    }

    public PreferencesDialog openPreferences() {
        PreferencesDialog d = new PreferencesDialog(new PreferencesViewModel(ctx.service(), m), ctx, stage, theme());
        d.show();
        return d;
    }

    /** "Open existing vault": choose its vault.coffer (a vault folder can be dropped onto the list, or chosen with {@link #chooseExistingFolder}). */
    void chooseExisting() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(m.get("main.openVault.file"));
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(m.get("main.openVault.filter"), "vault.coffer"));
        File home = ctx.home().toFile();
        if (home.isDirectory()) {
            chooser.setInitialDirectory(home);
        }
        Optional.ofNullable(chooser.showOpenDialog(stage)).map(File::toPath).ifPresent(main::addExisting);
    }

    /** "Open vault folder": choose the folder that holds vault.coffer. */
    void chooseExistingFolder() {
        DirectoryChooser chooser = new DirectoryChooser();
        chooser.setTitle(m.get("main.openVault.title"));
        File home = ctx.home().toFile();
        if (home.isDirectory()) {
            chooser.setInitialDirectory(home);
        }
        Optional.ofNullable(chooser.showDialog(stage)).map(File::toPath).ifPresent(main::addExisting);
    }

    /** Lock all (the tray's item): shows the window if some vault stayed unlocked, which it names. */
    public void lockAll() {
        main.lockAllOfferingForce(this::bringToFront);
    }

    private void askForceLock(ManagedVault v) {
        if (main.forceLockOffer().get() != v) {
            return;
        }
        if (stage != null && !stage.isShowing()) {
            bringToFront(); // asked from the tray with the window hidden: the question needs its owner
        }
        if (confirm(m.get("main.forceLock.title"), m.get("main.forceLock.text", v.settings().name()),
                m.get("main.forceLock.force"), "confirm-force-lock")) {
            main.forceLock(v);
        } else {
            main.declineForceLock(v);
        }
    }

    /** A themed yes/no question; true if the person chose {@code yes}. Cancel (Esc) is the default for safety. */
    boolean confirm(String title, String text, String yes, String id) {
        return Dialogs.confirm(stage, theme(), m.get("unlock.cancel"), title, text, yes, id);
    }
}
