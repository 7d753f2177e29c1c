package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.os.SingleInstance;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.TestVaults;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.TextField;
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

    @Test
    void sigtermWipesTheOpenDialogsAndTakesTheRecoveryWordsOffTheClipboard() throws Exception {
        TestVaults setup = new TestVaults(tmp); // tmp/config
        setup.create("Daily");
        CofferApp.prepare(tmp.resolve("config"), null);
        Stage stage = FxToolkit.registerPrimaryStage();
        CofferApp app = (CofferApp) FxToolkit.setupApplication(CofferApp.class);
        // a wizard at its recovery page, with fast scrypt (the app's own would take seconds)
        TestVaults elsewhere = new TestVaults(tmp.resolve("elsewhere"));
        FxBackground background = new FxBackground();
        CreateVaultViewModel vm = new CreateVaultViewModel(elsewhere.service, background, Messages.of(java.util.Locale.ENGLISH),
                java.nio.file.Files.createDirectories(tmp.resolve("home")));
        try {
            Fx.await("the main window", 10, () -> stage.isShowing() && robot.lookup("#vault-list").tryQuery().isPresent());
            UnlockDialog unlock = Fx.call(() -> app.gui().openUnlock(app.gui().mainViewModel().vaults().get(0)));
            robot.clickOn("#unlock-passphrase").write("vinegar");
            PassphraseField typed = (PassphraseField) robot.lookup("#unlock-passphrase").queryAs(TextField.class).getParent();
            assertThat(Fx.call(() -> typed.characters().toString())).isEqualTo("vinegar");

            CreateVaultWizard wizard = Fx.call(() -> new CreateVaultWizard(vm, stage, dev.coffer.app.vaults.Theme.LIGHT,
                    SecretClipboard.DEFAULT_DELAY));
            Fx.run(wizard::show);
            Fx.run(() -> {
                vm.name().set("Taxes");
                vm.location().set(tmp.toString());
                vm.next();
                vm.next();
                vm.create("vinegar telescope umbrella".toCharArray(), "vinegar telescope umbrella".toCharArray());
            });
            Fx.await("the recovery key page", 30, () -> vm.step().get() == CreateVaultViewModel.Step.RECOVERY_KEY);
            String key = Fx.call(() -> vm.recoveryKey().get());
            robot.clickOn("#wizard-copy");
            assertThat(Fx.call(() -> Clipboard.getSystemClipboard().getString())).isEqualTo(key);

            app.onTerminate().run(); // what the shutdown hook runs on SIGTERM, on its own thread

            assertThat(Fx.call(() -> Clipboard.getSystemClipboard().hasString())).as("the words on the clipboard").isFalse();
            assertThat(Fx.call(() -> wizard.stage().isShowing())).isFalse();
            javafx.scene.Parent root = wizard.stage().getScene().getRoot();
            assertThat(Fx.call(() -> Fx.textsShown(root))).doesNotContainAnyElementsOf(List.of(key.split("\\s+")));
            assertThat(Fx.call(() -> unlock.stage().isShowing())).isFalse();
            assertThat(Fx.call(() -> typed.characters().length())).as("the typed passphrase").isZero();
            assertThat(Fx.call(stage::isShowing)).as("the main window stays for stop()").isTrue();
        } finally {
            FxToolkit.cleanupApplication(app);
            FxToolkit.cleanupStages();
            background.close();
            elsewhere.service.lockAll(true);
        }
    }

    @Test
    void theWipeOnSigtermWaitsForABlockedFxThreadOnlyUpToItsBound() throws Exception {
        FxToolkit.registerPrimaryStage();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        javafx.application.Platform.runLater(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            long start = System.nanoTime();
            boolean ran = FxBeforeExit.run(() -> {}, java.time.Duration.ofMillis(300));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(ran).isFalse();
            assertThat(millis).isBetween(250L, 2000L);
        } finally {
            release.countDown();
        }
        assertThat(FxBeforeExit.run(() -> {}, java.time.Duration.ofSeconds(2))).as("the FX thread free again").isTrue();
    }

    /** The vault names of the open unlock dialogs. */
    private static List<String> unlockDialogs() {
        return Window.getWindows().stream().filter(w -> w.getScene() != null && w.getScene().getRoot().getId() != null
                && w.getScene().getRoot().getId().equals("unlock-dialog"))
                .map(w -> ((Stage) w).getTitle().replace("Unlock ", "")).toList();
    }
}
