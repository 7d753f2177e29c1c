package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.vaults.FakeMounter;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.MountMethod;
import dev.coffer.app.vaults.Mounters;
import dev.coffer.app.vaults.Preferences;
import dev.coffer.app.vaults.SettingsStore;
import dev.coffer.app.vaults.TestVaults;
import dev.coffer.app.vaults.Theme;
import dev.coffer.app.vaults.VaultService;
import dev.coffer.core.vault.CipherCombo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/**
 * Renders every main screen in the light and the dark theme into {@code docs/screenshots} (the
 * README shows them): main window (with vaults, and empty), the four wizard steps, unlock with a
 * wrong passphrase, the vault options tabs, preferences. Drives are fake here (the look is what is
 * tested; mounting is GuiEndToEndIT's). Each PNG is checked to be written and not blank.
 */
class ScreenshotsIT {
    private static final Path DEMO = Path.of(System.getProperty("java.io.tmpdir"), "coffer-demo");
    private static Path out;
    private static Stage stage;

    @BeforeAll
    static void toolkit() throws Exception {
        out = Path.of(System.getProperty("coffer.screenshots", "target/screenshots"));
        stage = FxToolkit.registerPrimaryStage();
    }

    @AfterAll
    static void cleanUp() throws Exception {
        FxToolkit.cleanupStages();
        delete(DEMO);
    }

    private static void delete(Path p) throws Exception {
        if (Files.exists(p)) {
            try (Stream<Path> s = Files.walk(p)) {
                for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(q);
                }
            }
        }
    }

    @Test
    void everyScreenInBothThemes() throws Exception {
        for (Theme theme : new Theme[] {Theme.LIGHT, Theme.DARK}) {
            delete(DEMO);
            screens(theme, theme.name().toLowerCase(Locale.ROOT));
        }
        try (Stream<Path> pngs = Files.list(out)) {
            assertThat(pngs.filter(p -> p.toString().endsWith(".png")).count()).isGreaterThanOrEqualTo(20);
        }
    }

    private void screens(Theme theme, String suffix) throws Exception {
        Path home = Files.createDirectories(DEMO.resolve("home"));
        Files.createDirectories(home.resolve("Dropbox"));
        Files.createDirectories(home.resolve("Nextcloud"));
        FakeMounter fuse = new FakeMounter(MountMethod.FUSE);
        VaultService service = new VaultService(new SettingsStore(DEMO.resolve("config")), new Mounters().with(fuse),
                Clock.systemUTC(), home.resolve("Vaults"), TestVaults.FAST_SCRYPT);
        service.updatePreferences(new Preferences(theme, false, MountMethod.AUTO, Preferences.DEFAULT_WEBDAV_PORT, 0, "en", false));
        GuiContext ctx = new GuiContext(service, Messages.of(Locale.ENGLISH), uri -> { }, new FxBackground(), home,
                DEMO.resolve("config/coffer.log"), new MemoryKeyring());
        Gui gui = Fx.call(() -> new Gui(ctx));
        Fx.run(() -> gui.show(stage));
        shot(stage.getScene(), "main-empty", suffix);

        ManagedVault taxes = service.create(home.resolve("Dropbox"), "Tax papers", TestVaults.PASSPHRASE.toCharArray(),
                CipherCombo.SIV_XTSHMAC).vault();
        service.create(home.resolve("Nextcloud"), "Family photos", TestVaults.PASSPHRASE.toCharArray(), CipherCombo.SIV_XTSHMAC);
        ManagedVault work = service.create(home, "Work projects", TestVaults.PASSPHRASE.toCharArray(), CipherCombo.SIV_XTSHMAC)
                .vault();
        service.unlock(taxes, TestVaults.PASSPHRASE.toCharArray());
        Files.move(home.resolve("Work projects"), home.resolve("Work projects (old)"));
        try {
            service.unlock(work, TestVaults.PASSPHRASE.toCharArray());
        } catch (dev.coffer.app.vaults.VaultException expected) {
            // the ERROR state is part of the picture
        }
        Fx.run(() -> gui.mainViewModel().selected().set(taxes));
        shot(stage.getScene(), "main-unlocked", suffix);
        Fx.run(() -> gui.mainViewModel().selected().set(service.vaults().get(1)));
        shot(stage.getScene(), "main-locked", suffix);
        Fx.run(() -> gui.mainViewModel().selected().set(work));
        shot(stage.getScene(), "main-error", suffix);

        UnlockDialog unlock = Fx.call(() -> gui.openUnlock(service.vaults().get(1)));
        Fx.await("the keyring to be asked", 10, () -> !unlock.viewModel().busy().get());
        Fx.run(() -> unlock.viewModel().unlock("not the passphrase".toCharArray()));
        Fx.await("the wrong passphrase message", 30, () -> !unlock.viewModel().error().get().isEmpty());
        shot(unlock.stage().getScene(), "unlock-wrong-passphrase", suffix);
        Fx.run(() -> unlock.stage().close());

        CreateVaultWizard wizard = Fx.call(gui::openCreate);
        CreateVaultViewModel w = wizard.viewModel();
        shot(wizard.stage().getScene(), "wizard-1-name", suffix);
        Fx.run(() -> {
            w.name().set("Contracts");
            w.next();
        });
        shot(wizard.stage().getScene(), "wizard-2-location", suffix);
        Fx.run(w::next);
        Fx.run(() -> {
            Scene s = wizard.stage().getScene();
            ((PassphraseField) s.lookup("#wizard-passphrase").getParent()).field().setText("vinegar telescope umbrella");
            ((PassphraseField) s.lookup("#wizard-confirm").getParent()).field().setText("vinegar telescope umbrella");
        });
        shot(wizard.stage().getScene(), "wizard-3-passphrase", suffix);
        Fx.run(() -> wizard.stage().getScene().lookup("#wizard-next").fireEvent(new javafx.event.ActionEvent()));
        Fx.await("the recovery key page", 60, () -> w.step().get() == CreateVaultViewModel.Step.RECOVERY_KEY);
        shot(wizard.stage().getScene(), "wizard-4-recovery-key", suffix);
        Fx.run(() -> wizard.stage().close());

        VaultOptionsDialog options = Fx.call(() -> gui.openOptions(taxes));
        shot(options.stage().getScene(), "options-general", suffix);
        Fx.run(() -> options.tabs().getSelectionModel().select(1));
        shot(options.stage().getScene(), "options-drive", suffix);
        Fx.run(() -> options.tabs().getSelectionModel().select(2));
        shot(options.stage().getScene(), "options-passphrase", suffix);
        Fx.run(() -> options.stage().close());
        VaultOptionsDialog health = Fx.call(() -> gui.openOptions(service.vaults().get(1)));
        Fx.run(() -> health.tabs().getSelectionModel().select(4));
        Fx.run(() -> health.viewModel().runHealthCheck(TestVaults.PASSPHRASE.toCharArray()));
        Fx.await("the health report", 60, () -> !health.viewModel().healthReport().get().isEmpty());
        shot(health.stage().getScene(), "options-health", suffix);
        Fx.run(() -> health.stage().close());

        PreferencesDialog prefs = Fx.call(gui::openPreferences);
        shot(prefs.stage().getScene(), "preferences", suffix);
        Fx.run(() -> prefs.stage().close());
        service.lockAll(true);
    }

    private static void shot(Scene scene, String name, String suffix) throws Exception {
        Path png = out.resolve(name + "-" + suffix + ".png");
        Fx.snapshot(scene, png);
        assertThat(Files.size(png)).as(png.toString()).isGreaterThan(5_000);
    }
}
