package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.os.SingleInstance;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.TestVaults;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.input.Clipboard;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The application's lifecycle as a launch runs it: settings from the config folder, "unlock at
 * startup" opening its dialog, the single-instance socket taking a second launch's vault path
 * (added to the list, its unlock dialog opened), and stop() releasing the socket and hiding the
 * dialogs still open, so they let go of their secrets. Headless, so there is no tray: the no-tray
 * path is the one taken.
 */
class CofferAppIT {
    @TempDir
    Path tmp;

    private final FxRobot robot = new FxRobot();

    @Test
    void startsFromTheConfigFolderAndTakesASecondLaunchsVault() throws Exception {
        Path config = tmp.resolve("config");
        TestVaults setup = new TestVaults(tmp); // writes tmp/config/settings.json
        var p = setup.service.preferences();
        setup.service.updatePreferences(new dev.coffer.app.vaults.Preferences(p.theme(), p.startMinimised(),
                p.defaultMountMethod(), p.webDavPort(), p.autoLockMinutesDefault(), "en", p.debugLogging()));
        ManagedVault atStartup = setup.create("Daily").vault();
        setup.service.update(atStartup, s -> s.withUnlockAtStartup(true));
        setup.create("Other"); // in the list, not at startup
        TestVaults elsewhere = new TestVaults(tmp.resolve("elsewhere"));
        Path forwarded = elsewhere.create("Forwarded").vault().settings().folderPath();

        CofferApp.prepare(config, null);
        Stage stage = FxToolkit.registerPrimaryStage();
        CofferApp app = (CofferApp) FxToolkit.setupApplication(CofferApp.class);
        try {
            Fx.await("the main window", 10, () -> stage.isShowing() && robot.lookup("#vault-list").tryQuery().isPresent());
            assertThat(app.gui().mainViewModel().vaults()).extracting(v -> v.settings().name()).containsExactly("Daily", "Other");
            Fx.await("the unlock dialog of the vault unlocked at startup", 10, () -> unlockDialogs().equals(List.of("Daily")));

            assertThat(SingleInstance.forward(config, List.of(forwarded.resolve("vault.coffer").toString()))).isTrue();
            Fx.await("the forwarded vault in the list", 10, () -> app.gui().mainViewModel().vaults().size() == 3);
            Fx.await("its unlock dialog", 10, () -> unlockDialogs().contains("Forwarded"));
            assertThat(app.gui().mainViewModel().selected().get().settings().name()).isEqualTo("Forwarded");
        } finally {
            FxToolkit.cleanupApplication(app);
            FxToolkit.cleanupStages();
        }
        assertThat(config.resolve(SingleInstance.SOCKET_NAME)).doesNotExist();
        assertThat(new TestVaults(tmp).open().vaults()).hasSize(3); // the forwarded vault was saved
    }

    @Test
    void quittingWithTheWizardOpenTakesTheRecoveryWordsOffTheClipboardAndTheScreen() throws Exception {
        new TestVaults(tmp); // an empty list in tmp/config
        CofferApp.prepare(tmp.resolve("config"), null);
        Stage stage = FxToolkit.registerPrimaryStage();
        CofferApp app = (CofferApp) FxToolkit.setupApplication(CofferApp.class);
        CreateVaultWizard wizard;
        String key;
        try {
            Fx.await("the main window", 10, () -> stage.isShowing() && robot.lookup("#vault-list").tryQuery().isPresent());
            wizard = Fx.call(() -> app.gui().openCreate());
            CreateVaultViewModel vm = wizard.viewModel();
            Fx.run(() -> {
                vm.name().set("Taxes");
                vm.location().set(tmp.toString());
                vm.next();
                vm.next();
                vm.create("vinegar telescope umbrella".toCharArray(), "vinegar telescope umbrella".toCharArray());
            });
            Fx.await("the recovery key page", 60, () -> vm.step().get() == CreateVaultViewModel.Step.RECOVERY_KEY);
            key = Fx.call(() -> vm.recoveryKey().get());
            robot.clickOn("#wizard-copy");
            assertThat(Fx.call(() -> Clipboard.getSystemClipboard().getString())).isEqualTo(key);
        } finally {
            FxToolkit.cleanupApplication(app); // stop(), as after "Lock all and quit"
        }
        try {
            assertThat(Fx.call(() -> Clipboard.getSystemClipboard().hasString())).as("the words on the clipboard").isFalse();
            assertThat(Fx.call(() -> wizard.stage().isShowing())).isFalse();
            javafx.scene.Parent root = wizard.stage().getScene().getRoot();
            assertThat(Fx.call(() -> Fx.textsShown(root))).doesNotContainAnyElementsOf(List.of(key.split("\\s+")));
        } finally {
            FxToolkit.cleanupStages();
        }
    }

    /** The vault names of the open unlock dialogs. */
    private static List<String> unlockDialogs() {
        return Window.getWindows().stream().filter(w -> w.getScene() != null && w.getScene().getRoot().getId() != null
                && w.getScene().getRoot().getId().equals("unlock-dialog"))
                .map(w -> ((Stage) w).getTitle().replace("Unlock ", "")).toList();
    }
}
