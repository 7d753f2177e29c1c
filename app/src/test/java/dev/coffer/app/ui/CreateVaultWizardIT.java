package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.ui.CreateVaultViewModel.Step;
import dev.coffer.app.vaults.TestVaults;
import dev.coffer.app.vaults.Theme;
import dev.coffer.core.vault.CipherCombo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.RadioButton;
import javafx.scene.control.ToggleButton;
import javafx.scene.input.KeyCode;
import javafx.stage.WindowEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The create wizard driven back and forth between its pages (TestFX, Monocle headless): a page the
 * person left and came back to is the same page, with what was chosen on it, and nothing of a page
 * no longer shown keeps reacting to what is typed; Next works again on the page gone back to; both
 * passphrases are wiped when the wizard closes; the window's close button waits for the creation.
 */
class CreateVaultWizardIT {
    private static final String PASSPHRASE = "vinegar telescope umbrella";

    @TempDir
    Path tmp;

    private final FxRobot robot = new FxRobot();
    private final FxBackground background = new FxBackground();
    private TestVaults t;
    private Path dropbox;
    private CreateVaultWizard wizard;
    private CreateVaultViewModel vm;

    @BeforeEach
    void openAtThePassphrasePage() throws Exception {
        FxToolkit.registerPrimaryStage();
        t = new TestVaults(tmp);
        Path home = Files.createDirectories(tmp.resolve("home"));
        dropbox = Files.createDirectories(home.resolve("Dropbox")); // a sync folder, offered on the location page
        vm = new CreateVaultViewModel(t.service, background, Messages.of(Locale.ENGLISH), home);
        wizard = Fx.call(() -> new CreateVaultWizard(vm, null, Theme.LIGHT));
        Fx.run(wizard::show);
        robot.clickOn("#wizard-name").write("Taxes");
        robot.clickOn("#wizard-next");
        awaitStep(Step.LOCATION);
        robot.clickOn("#wizard-location").push(KeyCode.CONTROL, KeyCode.A).write(tmp.toString());
        robot.clickOn("#wizard-next");
        awaitStep(Step.PASSPHRASE);
    }

    @AfterEach
    void cleanUp() throws Exception {
        FxToolkit.cleanupStages();
        background.close();
        t.service.lockAll(true);
    }

    private void awaitStep(Step step) {
        Fx.await("the " + step + " page", 10, () -> vm.step().get() == step);
    }

    /** Back to the location page and forward again, through the ViewModel (as the buttons do). */
    private void backAndForth() throws Exception {
        Fx.run(vm::back);
        awaitStep(Step.LOCATION);
        Fx.run(vm::next);
        awaitStep(Step.PASSPHRASE);
    }

    private Node strengthBar() {
        return robot.lookup(".strength-bar").query();
    }

    private static long litSegments(Node bar) {
        return ((Parent) bar).getChildrenUnmodifiable().stream().filter(s -> s.getStyleClass().contains("on")).count();
    }

    private PassphraseField field(String id) {
        return (PassphraseField) robot.lookup(id).query().getParent();
    }

    @Test
    void onlyThePassphrasePageShownReactsToTypingAfterGoingBackAndForth() throws Exception {
        List<Node> bars = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            bars.add(strengthBar());
            backAndForth();
        }
        Node shown = strengthBar();
        robot.clickOn("#wizard-passphrase").write(PASSPHRASE);
        assertThat(litSegments(shown)).as("the strength shown for what was typed").isPositive();
        for (Node bar : bars) {
            if (bar != shown) {
                assertThat(litSegments(bar)).as("a strength bar no longer shown still measures what is typed").isZero();
            }
        }
    }

    @Test
    void nextWorksOnTheLocationPageGoneBackToAndThePassphraseTypedIsKept() throws Exception {
        robot.clickOn("#wizard-passphrase").write(PASSPHRASE);
        for (int i = 0; i < 3; i++) {
            robot.clickOn("#wizard-back");
            awaitStep(Step.LOCATION);
            assertThat(robot.lookup("#wizard-next").queryAs(Button.class).isDisabled())
                    .as("Next on the location page after the passphrase page").isFalse();
            robot.clickOn("#wizard-next");
            awaitStep(Step.PASSPHRASE);
        }
        assertThat(Fx.call(() -> field("#wizard-passphrase").characters().toString())).isEqualTo(PASSPHRASE);
        robot.clickOn("#wizard-confirm").write(PASSPHRASE);
        Fx.await("Create enabled", 10, () -> !robot.lookup("#wizard-next").queryAs(Button.class).isDisabled());
    }

    @Test
    void theContentModeChosenStaysShownAfterGoingBackAndForth() throws Exception {
        robot.clickOn("#wizard-expert");
        robot.clickOn("#wizard-xts");
        backAndForth();
        assertThat(robot.lookup("#wizard-expert").queryAs(CheckBox.class).isSelected()).isTrue();
        RadioButton xts = robot.lookup("#wizard-xts").queryAs(RadioButton.class);
        assertThat(xts.isSelected()).isTrue();
        assertThat(xts.getParent().isVisible()).as("the modes, one of which is chosen, still shown").isTrue();
        assertThat(vm.contentMode()).isEqualTo(CipherCombo.SIV_XTS);
    }

    @Test
    void theSyncFolderShownAsChosenFollowsTheLocation() throws Exception {
        Fx.run(vm::back);
        awaitStep(Step.LOCATION);
        ToggleButton offered = robot.lookup(".sync-choice").queryAs(ToggleButton.class);
        robot.clickOn(offered);
        assertThat(vm.location().get()).isEqualTo(dropbox.toString());
        Fx.run(vm::next);
        awaitStep(Step.PASSPHRASE);
        Fx.run(vm::back);
        awaitStep(Step.LOCATION);
        assertThat(robot.lookup(".sync-choice").queryAs(ToggleButton.class).isSelected()).isTrue();
        robot.clickOn("#wizard-location").push(KeyCode.CONTROL, KeyCode.A).write(tmp.toString());
        Fx.run(vm::next);
        awaitStep(Step.PASSPHRASE);
        Fx.run(vm::back);
        awaitStep(Step.LOCATION);
        assertThat(robot.lookup(".sync-choice").queryAs(ToggleButton.class).isSelected())
                .as("the sync folder is no longer the location").isFalse();
    }

    @Test
    void closingAfterGoingBackAndForthWipesBothPassphrases() throws Exception {
        robot.clickOn("#wizard-passphrase").write(PASSPHRASE);
        robot.clickOn("#wizard-confirm").write("vinegar");
        PassphraseField passphrase = field("#wizard-passphrase");
        PassphraseField confirmation = field("#wizard-confirm");
        backAndForth();
        backAndForth();
        robot.clickOn("#wizard-cancel");
        Fx.await("the wizard to close", 10, () -> !wizard.stage().isShowing());
        assertThat(Fx.call(() -> passphrase.characters().length())).isZero();
        assertThat(Fx.call(() -> confirmation.characters().length())).isZero();
    }

    @Test
    void theRecoveryPageShowsTheWordsAndFinishesOnlyOnceTheyAreWrittenDown() throws Exception {
        backAndForth();
        robot.clickOn("#wizard-passphrase").write(PASSPHRASE);
        robot.clickOn("#wizard-confirm").write(PASSPHRASE).type(KeyCode.ENTER);
        Fx.await("the recovery key page", 60, () -> vm.step().get() == Step.RECOVERY_KEY);
        Fx.await("the 48 words", 10,
                () -> robot.from(robot.lookup("#wizard-recovery-key").<Node>query()).lookup(".word").queryAll().size() == 48);
        Button finish = robot.lookup("#wizard-next").queryAs(Button.class);
        assertThat(finish.isDisabled()).as("Finish before the words are written down").isTrue();
        robot.clickOn("#wizard-written-down");
        assertThat(finish.isDisabled()).isFalse();
        robot.clickOn("#wizard-next");
        Fx.await("the wizard to close", 10, () -> !wizard.stage().isShowing());
        assertThat(vm.created().get()).isNotNull();
    }

    @Test
    void theWindowsCloseButtonWaitsForTheCreation() throws Exception {
        HeldBackground held = new HeldBackground();
        CreateVaultViewModel creating = new CreateVaultViewModel(t.service, held, Messages.of(Locale.ENGLISH), tmp.resolve("home"));
        CreateVaultWizard w = Fx.call(() -> new CreateVaultWizard(creating, null, Theme.LIGHT));
        Fx.run(w::show);
        Fx.run(() -> {
            creating.name().set("Held");
            creating.location().set(tmp.toString());
            creating.next();
            creating.next();
            creating.create(PASSPHRASE.toCharArray(), PASSPHRASE.toCharArray());
        });
        assertThat(Fx.call(() -> creating.busy().get())).as("creating").isTrue();
        Fx.run(() -> w.stage().fireEvent(new WindowEvent(w.stage(), WindowEvent.WINDOW_CLOSE_REQUEST)));
        assertThat(Fx.call(() -> w.stage().isShowing())).as("closed while the vault was being created").isTrue();

        Fx.run(held::release);
        Fx.await("the recovery key page", 10, () -> creating.step().get() == Step.RECOVERY_KEY);
        assertThat(robot.from(w.stage().getScene().getRoot()).lookup(".word").queryAll()).hasSize(48);
        Fx.run(() -> w.stage().fireEvent(new WindowEvent(w.stage(), WindowEvent.WINDOW_CLOSE_REQUEST)));
        assertThat(Fx.call(() -> w.stage().isShowing())).as("closes once created").isFalse();
    }
}
