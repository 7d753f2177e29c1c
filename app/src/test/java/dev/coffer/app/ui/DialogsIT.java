package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.os.PassphraseStore;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.TestVaults;
import dev.coffer.app.vaults.Theme;
import dev.coffer.app.vaults.VaultState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The options and preferences dialogs and the German UI, driven through real scenes (TestFX,
 * Monocle headless). Drives are fake here: mounting is GuiEndToEndIT's.
 */
class DialogsIT {
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

    private Gui show(Locale locale) throws Exception {
        t = new TestVaults(tmp);
        Path home = Files.createDirectories(tmp.resolve("home"));
        GuiContext ctx = new GuiContext(t.service, Messages.of(locale), uri -> { }, new FxBackground(), home,
                tmp.resolve("config/coffer.log"), PassphraseStore.unavailable("none in tests"));
        Stage stage = FxToolkit.registerPrimaryStage();
        Gui gui = Fx.call(() -> new Gui(ctx));
        Fx.run(() -> gui.show(stage));
        return gui;
    }

    @Test
    void choosingTheDarkThemeRestylesTheOpenWindowAndIsSaved() throws Exception {
        Gui gui = show(Locale.ENGLISH);
        assertThat(gui.stage().getScene().getStylesheets()).anyMatch(s -> s.endsWith("light.css") || s.endsWith("dark.css"));
        robot.clickOn("#preferences-button");
        Fx.await("the preferences", 10, () -> robot.lookup("#prefs-dialog").tryQuery().isPresent());
        robot.clickOn("#prefs-theme");
        robot.clickOn("Dark");
        robot.clickOn("#prefs-save");
        Fx.await("the dark theme on the main window", 10,
                () -> gui.stage().getScene().getStylesheets().stream().anyMatch(s -> s.endsWith("dark.css")));
        assertThat(t.open().preferences().theme()).isEqualTo(Theme.DARK);
        assertThat(robot.lookup("#prefs-dialog").tryQuery()).isEmpty();
    }

    @Test
    void changeThePassphraseInTheOptionsDialog() throws Exception {
        show(Locale.ENGLISH);
        ManagedVault v = t.create("Taxes").vault();
        Fx.await("the vault in the list", 10, () -> robot.lookup("#options-button").tryQuery().isPresent());
        robot.clickOn("#options-button");
        Fx.await("the options", 10, () -> robot.lookup("#options-dialog").tryQuery().isPresent());
        robot.clickOn("Passphrase");
        robot.clickOn("#options-current").write(TestVaults.PASSPHRASE);
        robot.clickOn("#options-new").write("a new passphrase");
        robot.clickOn("#options-again").write("a new passphrase");
        robot.clickOn("#options-change");
        Fx.await("the passphrase to be changed", 60, () -> "The passphrase was changed."
                .equals(robot.lookup("#options-status").queryAs(Label.class).getText()));
        assertThat(robot.lookup("#options-current").queryAs(javafx.scene.control.TextField.class).getText())
                .as("fields are cleared").isEmpty();
        robot.clickOn("General");
        robot.doubleClickOn("#options-name").push(KeyCode.CONTROL, KeyCode.A).write("Tax papers");
        robot.clickOn("#options-save");
        Fx.await("the new name saved", 10, () -> v.settings().name().equals("Tax papers"));
        robot.clickOn("#options-close");

        t.service.unlock(v, "a new passphrase".toCharArray());
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        Fx.await("the new name in the details", 10,
                () -> robot.lookup("#details-name").queryAs(Label.class).getText().equals("Tax papers"));
    }

    @Test
    void theHealthTabRepairsAnOrphanFolderAfterShowingAndConfirmingTheRepair() throws Exception {
        show(Locale.ENGLISH);
        ManagedVault v = t.create("Taxes").vault();
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        var drive = t.fuse.drives.get(0);
        Files.createDirectories(drive.cleartextRoot.resolve("letters"));
        drive.write("letters/bank.txt", "statement");
        t.service.lock(v, false);
        assertThat(TestVaults.orphanEveryFolder(v.settings().folderPath())).isEqualTo(1);

        Fx.await("the vault in the list", 10, () -> robot.lookup("#options-button").tryQuery().isPresent());
        robot.clickOn("#options-button");
        Fx.await("the options", 10, () -> robot.lookup("#options-dialog").tryQuery().isPresent());
        robot.clickOn("Health");
        assertThat(robot.lookup("#options-health-repair").query().isVisible()).as("no repair before a check").isFalse();
        robot.clickOn("#options-health-passphrase").write(TestVaults.PASSPHRASE);
        robot.clickOn("#options-health-run");
        Fx.await("the check's report", 60, () -> robot.lookup("#options-health-repair").query().isVisible());
        String report = robot.lookup("#options-health-report").queryAs(javafx.scene.control.TextArea.class).getText();
        assertThat(report).startsWith("Problems found:").contains("orphan storage folder").contains("Repairs (1):");

        // declining the question changes nothing
        robot.clickOn("#options-health-passphrase").write(TestVaults.PASSPHRASE);
        robot.clickOn("#options-health-repair");
        Fx.await("the repair question", 10, () -> robot.lookup("#confirm-repair").tryQuery().isPresent());
        String question = robot.lookup(".dialog-body").queryAll().stream().flatMap(n -> robot.from(n).lookup(".label")
                .queryAllAs(Label.class).stream()).map(Label::getText).filter(x -> x.startsWith("These 1 repair(s)"))
                .findFirst().orElseThrow();
        assertThat(question).contains("LOST+FOUND");
        robot.clickOn("#confirm-repair-cancel");
        Fx.await("the question closed", 10, () -> robot.lookup("#confirm-repair").tryQuery().isEmpty());
        assertThat(TestVaults.orphanEveryFolder(v.settings().folderPath())).as("still no pointer made").isZero();

        // confirming repairs, off the FX thread, and shows the new check
        robot.clickOn("#options-health-repair");
        Fx.await("the repair question", 10, () -> robot.lookup("#confirm-repair").tryQuery().isPresent());
        robot.clickOn("#confirm-repair");
        Fx.await("the repair's report", 60, () -> robot.lookup("#options-health-report")
                .queryAs(javafx.scene.control.TextArea.class).getText().startsWith("Repaired 1 of 1."));
        assertThat(robot.lookup("#options-health-report").queryAs(javafx.scene.control.TextArea.class).getText())
                .contains("Checked again: Healthy");
        assertThat(robot.lookup("#options-health-repair").query().isVisible()).isFalse();
        robot.clickOn("#options-close");

        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        try (var found = Files.walk(t.fuse.drives.get(1).cleartextRoot.resolve("LOST+FOUND"))) {
            Path bank = found.filter(p -> p.getFileName() != null && p.getFileName().toString().equals("bank.txt"))
                    .findFirst().orElseThrow(() -> new AssertionError("bank.txt not adopted into LOST+FOUND"));
            assertThat(Files.readString(bank)).isEqualTo("statement");
        }
    }

    @Test
    void droppingAVaultFolderOrItsConfigOntoTheListAddsIt() throws Exception {
        Gui gui = show(Locale.ENGLISH);
        TestVaults elsewhere = new TestVaults(tmp.resolve("elsewhere"));
        Path byFolder = elsewhere.create("Dropped folder").vault().settings().folderPath();
        Path byConfig = elsewhere.create("Dropped config").vault().settings().folderPath().resolve("vault.coffer");
        Path notAVault = Files.createDirectories(tmp.resolve("just a folder"));
        javafx.scene.Node list = robot.lookup("#vault-list").query();

        // dragging files over the list accepts them and marks the list
        javafx.scene.input.DragEvent over = drag(list, javafx.scene.input.DragEvent.DRAG_OVER, byFolder);
        Fx.run(() -> javafx.event.Event.fireEvent(list, over));
        assertThat(over.getAcceptedTransferMode()).isEqualTo(javafx.scene.input.TransferMode.LINK);
        assertThat(list.getStyleClass()).contains("drop-target");
        javafx.scene.input.DragEvent exited = drag(list, javafx.scene.input.DragEvent.DRAG_EXITED, byFolder);
        Fx.run(() -> javafx.event.Event.fireEvent(list, exited));
        assertThat(list.getStyleClass()).doesNotContain("drop-target");

        // dropping a vault folder adds it and selects it; so does its vault.coffer
        for (Path dropped : List.of(byFolder, byConfig)) {
            javafx.scene.input.DragEvent drop = drag(list, javafx.scene.input.DragEvent.DRAG_DROPPED, dropped);
            Fx.run(() -> javafx.event.Event.fireEvent(list, drop));
            assertThat(drop.isDropCompleted()).as("drop of " + dropped).isTrue();
        }
        Fx.await("both vaults in the list", 10, () -> gui.mainViewModel().vaults().size() == 2);
        assertThat(gui.mainViewModel().vaults()).extracting(v -> v.settings().name())
                .containsExactly("Dropped folder", "Dropped config");
        assertThat(gui.mainViewModel().selected().get().settings().name()).isEqualTo("Dropped config");
        Fx.await("the details of the dropped vault", 10, () -> robot.lookup("#details-name").queryAs(Label.class).getText()
                .equals("Dropped config"));
        assertThat(t.open().vaults()).hasSize(2); // saved

        // a folder that is not a vault: not completed, and the window says why
        javafx.scene.input.DragEvent refused = drag(list, javafx.scene.input.DragEvent.DRAG_DROPPED, notAVault);
        Fx.run(() -> javafx.event.Event.fireEvent(list, refused));
        assertThat(refused.isDropCompleted()).isFalse();
        assertThat(gui.mainViewModel().vaults()).hasSize(2);
        assertThat(gui.mainViewModel().notice().get()).startsWith("This folder is not a Coffer vault");
    }

    private static javafx.scene.input.DragEvent drag(javafx.scene.Node target,
            javafx.event.EventType<javafx.scene.input.DragEvent> type, Path file) throws Exception {
        return Fx.call(() -> FileDrag.event(target, type, file));
    }

    @Test
    void fuseMissingIsExplainedInTheUnlockDialogAndTheDetails() throws Exception {
        show(Locale.ENGLISH);
        t.create("Taxes");
        t.fuse.unavailable = new dev.coffer.app.vaults.VaultException(dev.coffer.app.vaults.Problem.FUSE_MISSING,
                "FUSE needs the packages fuse3 and libfuse2");
        Fx.await("the vault", 10, () -> robot.lookup("#unlock-button").tryQuery().isPresent());
        robot.clickOn("#unlock-button");
        Fx.await("the unlock dialog", 10, () -> robot.lookup("#unlock-dialog").tryQuery().isPresent());
        robot.clickOn("#unlock-passphrase").write(TestVaults.PASSPHRASE).type(KeyCode.ENTER);
        Fx.await("the FUSE message", 30, () -> robot.lookup("#unlock-error").queryAs(Label.class).getText()
                .startsWith("FUSE is not available on this computer"));
        assertThat(robot.lookup("#unlock-error").queryAs(Label.class).getText()).contains("fuse3 and libfuse2");
        robot.clickOn("#unlock-cancel");
        Fx.await("the problem in the details", 10, () -> robot.lookup("#details-problem").tryQuery().isPresent());
        assertThat(robot.lookup("#details-state").queryAs(Label.class).getText()).isEqualTo("Needs attention");
    }

    @Test
    void theWholeWindowSpeaksGerman() throws Exception {
        show(Locale.GERMAN);
        assertThat(robot.lookup("#add-vault").queryAs(javafx.scene.control.MenuButton.class).getText())
                .isEqualTo("Tresor hinzuf\u00fcgen");
        t.create("Steuern");
        Fx.await("the vault", 10, () -> robot.lookup("#details-state").tryQuery().isPresent());
        assertThat(robot.lookup("#details-state").queryAs(Label.class).getText()).isEqualTo("Gesperrt");
        assertThat(robot.lookup("#unlock-button").queryAs(javafx.scene.control.Button.class).getText())
                .isEqualTo("Entsperren\u2026");
    }
}
