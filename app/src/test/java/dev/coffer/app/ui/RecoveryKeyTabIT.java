package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.os.PassphraseStore;
import dev.coffer.app.vaults.CreatedVault;
import dev.coffer.app.vaults.TestVaults;
import dev.coffer.app.vaults.Theme;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.TextArea;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The vault options' Recovery key tab (TestFX, Monocle headless): the words shown after the
 * passphrase, and the words typed to reset it, are gone from every node of the dialog once it
 * closes, the typed ones from the text area's undo history too.
 */
class RecoveryKeyTabIT {
    @TempDir
    Path tmp;

    private final FxRobot robot = new FxRobot();
    private final FxBackground background = new FxBackground();
    private TestVaults t;
    private CreatedVault created;
    private VaultOptionsDialog dialog;
    private VaultOptionsViewModel vm;

    @BeforeEach
    void openTheRecoveryKeyTab() throws Exception {
        FxToolkit.registerPrimaryStage();
        t = new TestVaults(tmp);
        created = t.create("Taxes");
        vm = new VaultOptionsViewModel(created.vault(), t.service, background,
                Messages.of(Locale.ENGLISH), PassphraseStore.unavailable("none in tests"));
        dialog = Fx.call(() -> new VaultOptionsDialog(vm, null, Theme.LIGHT));
        Fx.run(dialog::show);
        robot.clickOn("Recovery key");
    }

    @AfterEach
    void cleanUp() throws Exception {
        FxToolkit.cleanupStages();
        background.close();
        t.service.lockAll(true);
    }

    @Test
    void theWordsShownAndTypedAreGoneOnceTheDialogCloses() throws Exception {
        Set<String> words = new HashSet<>(created.recoveryWords());
        robot.clickOn("#options-recovery-passphrase").write(TestVaults.PASSPHRASE);
        robot.clickOn("#options-show-recovery");
        Fx.await("the 48 words", 60,
                () -> robot.from(robot.lookup("#options-recovery-key").<Node>query()).lookup(".word").queryAll().size() == 48);
        TextArea typed = robot.lookup("#options-reset-words").queryAs(TextArea.class);
        String sixWords = String.join(" ", created.recoveryWords().subList(0, 6));
        robot.clickOn(typed).write(sixWords);
        assertThat(Fx.call(typed::isUndoable)).as("typing is undoable: the undo history holds it").isTrue();
        Parent root = dialog.stage().getScene().getRoot();
        List<String> before = Fx.call(() -> Fx.textsShown(root));
        assertThat(before).as("the words shown").containsAll(words);
        assertThat(before).as("the words typed").anyMatch(s -> s.contains(sixWords));

        Fx.run(dialog.stage()::close); // the window's close button, as Close and Esc
        List<String> shown = Fx.call(() -> Fx.textsShown(root));
        assertThat(shown).doesNotContainAnyElementsOf(words);
        assertThat(shown).noneMatch(s -> s.contains(sixWords));
        assertThat(Fx.call(typed::isUndoable)).as("what was typed, still in the undo history").isFalse();
    }

    @Test
    void leavingTheTabForgetsTheWordsShown() throws Exception {
        Set<String> words = new HashSet<>(created.recoveryWords());
        robot.clickOn("#options-recovery-passphrase").write(TestVaults.PASSPHRASE);
        robot.clickOn("#options-show-recovery");
        Fx.await("the 48 words", 60,
                () -> robot.from(robot.lookup("#options-recovery-key").<Node>query()).lookup(".word").queryAll().size() == 48);
        Parent root = dialog.stage().getScene().getRoot();
        robot.clickOn("General");
        assertThat(Fx.call(() -> Fx.textsShown(root))).doesNotContainAnyElementsOf(words);
        assertThat(Fx.call(() -> vm.recoveryKey().get())).isEmpty();
        robot.clickOn("Recovery key");
        assertThat(robot.from(robot.lookup("#options-recovery-key").<Node>query()).lookup(".word").queryAll())
                .as("the words, asked for again only with the passphrase").isEmpty();
    }
}
