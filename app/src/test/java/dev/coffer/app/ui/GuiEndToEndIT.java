package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.Mounters;
import dev.coffer.app.vaults.SettingsStore;
import dev.coffer.app.vaults.TestVaults;
import dev.coffer.app.vaults.VaultService;
import dev.coffer.app.vaults.VaultState;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.fuse.FuseMount;
import dev.coffer.fuse.MountTable;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The person's day, end to end through the real GUI (TestFX, Monocle headless) and a real FUSE
 * mount under /tmp: create a vault with the wizard, unlock with a wrong then the right passphrase,
 * write a file through the drive, try to lock while it is open (force is offered, declined), lock,
 * and check with core that the file is in the vault and that the ciphertext folder holds neither
 * its name nor its content.
 */
class GuiEndToEndIT {
    private static final String PASSPHRASE = "vinegar telescope umbrella";
    private static final String CLEARTEXT_NAME = "secret-note-e2e.txt";
    private static final String CLEARTEXT = "meet me at the old oak tree at noon";

    @TempDir
    Path tmp;

    private final FxRobot robot = new FxRobot();
    private final List<URI> revealed = new CopyOnWriteArrayList<>();
    private VaultService service;
    private Stage stage;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void lockEverything() throws Exception {
        if (service != null) {
            service.lockAll(true);
        }
        FxToolkit.cleanupStages();
    }

    @Test
    void createUnlockWriteLockThroughTheGuiWithARealFuseMount() throws Exception {
        FuseMount.checkAvailable(); // FUSE is a prerequisite of this test: missing, it fails here saying what to install
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path mountFolder = tmp.resolve("mnt");
        service = new VaultService(new SettingsStore(tmp.resolve("config")), Mounters.defaults(), Clock.systemUTC(),
                mountFolder, TestVaults.FAST_SCRYPT);
        GuiContext ctx = new GuiContext(service, Messages.of(Locale.ENGLISH), revealed::add, new FxBackground(), home,
                tmp.resolve("config/coffer.log"), dev.coffer.app.os.PassphraseStore.unavailable("no keyring in tests"));
        stage = FxToolkit.registerPrimaryStage();
        Gui gui = Fx.call(() -> new Gui(ctx));
        Fx.run(() -> gui.show(stage));

        createThroughTheWizard();
        ManagedVault vault = service.vaults().get(0);
        Path vaultFolder = vault.settings().folderPath();
        assertThat(vaultFolder).isEqualTo(tmp.resolve("Secrets"));
        assertThat(vault.state()).isEqualTo(VaultState.LOCKED);

        robot.clickOn("#vault-list").type(KeyCode.ENTER); // keyboard: Enter on the list unlocks the selected vault
        Fx.await("the unlock dialog", 10, () -> robot.lookup("#unlock-dialog").tryQuery().isPresent());
        Fx.await("the focus in the passphrase field", 10, () -> robot.lookup("#unlock-passphrase").query().isFocused());
        // Monocle's headless window manager sends keys to the window clicked last: click into the dialog first
        robot.clickOn("#unlock-passphrase").write("not the passphrase").type(KeyCode.ENTER);
        Fx.await("the wrong passphrase message", 60,
                () -> robot.lookup("#unlock-error").queryAs(Label.class).getText().startsWith("Wrong passphrase"));
        assertThat(robot.lookup("#unlock-dialog").tryQuery()).as("the dialog stays open").isPresent();
        assertThat(vault.state()).isEqualTo(VaultState.LOCKED);
        Fx.await("the field to have the focus again", 10, () -> robot.lookup("#unlock-passphrase").query().isFocused());
        robot.write(PASSPHRASE).type(KeyCode.ENTER);
        Fx.await("the vault to be unlocked", 60, () -> vault.state() == VaultState.UNLOCKED);
        Fx.await("the unlock dialog to close", 10, () -> robot.lookup("#unlock-dialog").tryQuery().isEmpty());

        Path drive = mountFolder.resolve("Secrets");
        assertThat(MountTable.isMounted(drive)).as("mounted with FUSE at " + drive).isTrue();
        assertThat(revealed).containsExactly(drive.toUri());
        Fx.await("the drive in the details", 10,
                () -> robot.lookup("#details-drive").tryQueryAs(Label.class).map(Label::getText).orElse("").equals(drive.toString()));
        Files.writeString(drive.resolve(CLEARTEXT_NAME), CLEARTEXT);
        assertThat(Files.readString(drive.resolve(CLEARTEXT_NAME))).isEqualTo(CLEARTEXT);

        try (FileChannel open = FileChannel.open(drive.resolve(CLEARTEXT_NAME), StandardOpenOption.READ)) {
            robot.clickOn("#details-name").push(KeyCode.CONTROL, KeyCode.L); // keyboard: Ctrl+L locks
            Fx.await("the offer to force the lock", 30, () -> robot.lookup("#confirm-force-lock").tryQuery().isPresent());
            assertThat(vault.state()).isEqualTo(VaultState.UNLOCKED);
            robot.clickOn("#confirm-force-lock-cancel");
            assertThat(open.size()).isEqualTo(CLEARTEXT.length()); // still served
        }
        assertThat(vault.state()).isEqualTo(VaultState.UNLOCKED);
        assertThat(MountTable.isMounted(drive)).isTrue();

        robot.clickOn("#lock-button");
        Fx.await("the vault to be locked", 60, () -> vault.state() == VaultState.LOCKED);
        assertThat(MountTable.isMounted(drive)).as("unmounted").isFalse();
        Fx.await("the Unlock button again", 10, () -> robot.lookup("#unlock-button").tryQuery().isPresent());

        try (CofferFileSystem fs = CofferFileSystems.open(vaultFolder, PASSPHRASE.toCharArray(), true)) {
            assertThat(Files.readString(fs.getPath("/" + CLEARTEXT_NAME))).isEqualTo(CLEARTEXT);
        }
        assertCiphertextOnly(vaultFolder);
    }

    @Test
    void withoutFuseTheVaultIsServedOverWebDavAndStaysEncrypted() throws Exception {
        dev.coffer.app.vaults.FakeMounter noFuse = new dev.coffer.app.vaults.FakeMounter(dev.coffer.app.vaults.MountMethod.FUSE);
        noFuse.unavailable = new dev.coffer.app.vaults.VaultException(dev.coffer.app.vaults.Problem.FUSE_MISSING,
                "FUSE disabled for this test");
        service = new VaultService(new SettingsStore(tmp.resolve("config")), new dev.coffer.app.vaults.Mounters().with(noFuse)
                .with(new dev.coffer.app.vaults.WebDavMounter(false)), Clock.systemUTC(), tmp.resolve("mnt"),
                TestVaults.FAST_SCRYPT);
        GuiContext ctx = new GuiContext(service, Messages.of(Locale.ENGLISH), revealed::add, new FxBackground(),
                Files.createDirectories(tmp.resolve("home")), tmp.resolve("config/coffer.log"),
                dev.coffer.app.os.PassphraseStore.unavailable("none in tests"));
        stage = FxToolkit.registerPrimaryStage();
        Gui gui = Fx.call(() -> new Gui(ctx));
        Fx.run(() -> gui.show(stage));
        ManagedVault vault = service.create(tmp, "Secrets", PASSPHRASE.toCharArray(),
                dev.coffer.core.vault.CipherCombo.SIV_XTSHMAC).vault();

        Fx.await("the Unlock button", 10, () -> robot.lookup("#unlock-button").tryQuery().isPresent());
        robot.clickOn("#unlock-button");
        Fx.await("the unlock dialog", 10, () -> robot.lookup("#unlock-dialog").tryQuery().isPresent());
        robot.clickOn("#unlock-passphrase").write(PASSPHRASE).type(KeyCode.ENTER);
        Fx.await("the vault to be unlocked", 60, () -> vault.state() == VaultState.UNLOCKED);
        String url = vault.drive().orElseThrow().location();
        assertThat(url).startsWith("http://127.0.0.1:");
        Fx.await("the URL in the details", 10,
                () -> robot.lookup("#details-drive").tryQueryAs(Label.class).map(Label::getText).orElse("").equals(url));
        assertThat(revealed).containsExactly(URI.create(url));

        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        var put = http.send(java.net.http.HttpRequest.newBuilder(URI.create(url + CLEARTEXT_NAME))
                .PUT(java.net.http.HttpRequest.BodyPublishers.ofString(CLEARTEXT)).build(),
                java.net.http.HttpResponse.BodyHandlers.discarding());
        assertThat(put.statusCode()).isBetween(200, 204);

        robot.clickOn("#lock-button");
        Fx.await("the vault to be locked", 60, () -> vault.state() == VaultState.LOCKED);
        try (CofferFileSystem fs = CofferFileSystems.open(tmp.resolve("Secrets"), PASSPHRASE.toCharArray(), true)) {
            assertThat(Files.readString(fs.getPath("/" + CLEARTEXT_NAME))).isEqualTo(CLEARTEXT);
        }
        assertCiphertextOnly(tmp.resolve("Secrets"));
    }

    private void createThroughTheWizard() {
        robot.clickOn("#add-vault");
        robot.clickOn("Create new vault\u2026");
        Fx.await("the wizard", 10, () -> robot.lookup("#create-wizard").tryQuery().isPresent());
        robot.clickOn("#wizard-name").write("Secrets").type(KeyCode.ENTER);
        Fx.await("the location step", 10, () -> robot.lookup("#wizard-location").tryQuery().isPresent());
        robot.clickOn("#wizard-location").push(KeyCode.CONTROL, KeyCode.A).write(tmp.toString()).type(KeyCode.ENTER);
        Fx.await("the passphrase step", 10, () -> robot.lookup("#wizard-passphrase").tryQuery().isPresent());
        robot.clickOn("#wizard-passphrase").write(PASSPHRASE);
        robot.clickOn("#wizard-confirm").write(PASSPHRASE).type(KeyCode.ENTER);
        Fx.await("the recovery key", 60, () -> robot.lookup("#wizard-recovery-key").tryQuery().isPresent());
        Node next = robot.lookup("#wizard-next").query();
        assertThat(next.isDisabled()).as("Done waits for the confirmation").isTrue();
        robot.clickOn("#wizard-written-down");
        robot.clickOn("#wizard-next");
        Fx.await("the wizard to close", 10, () -> robot.lookup("#create-wizard").tryQuery().isEmpty());
    }

    /** The vault folder holds no cleartext: not the file's name, not its bytes. */
    private static void assertCiphertextOnly(Path vaultFolder) throws Exception {
        byte[] needle = CLEARTEXT.getBytes(StandardCharsets.UTF_8);
        try (Stream<Path> all = Files.walk(vaultFolder)) {
            for (Path p : all.toList()) {
                assertThat(p.getFileName().toString()).doesNotContain("secret-note");
                if (Files.isRegularFile(p)) {
                    assertThat(indexOf(Files.readAllBytes(p), needle)).as(p + " holds the cleartext").isEqualTo(-1);
                }
            }
        }
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
