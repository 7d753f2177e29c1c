package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import javafx.event.Event;
import javafx.scene.AccessibleAction;
import javafx.scene.Scene;
import javafx.scene.control.TextInputControl;
import javafx.scene.control.ToggleButton;
import javafx.scene.input.Clipboard;
import javafx.scene.input.DataFormat;
import javafx.scene.input.InputMethodEvent;
import javafx.scene.input.InputMethodHighlight;
import javafx.scene.input.InputMethodTextRun;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The passphrase field edited as a person does (TestFX, Monocle headless): typing, moving the
 * caret, Backspace and Delete, typing over a selection, pasting, an emoji deleted whole; the field's
 * own text is only bullets (JavaFX's PasswordField kept the passphrase there as a String); cut,
 * copy and undo do nothing; "show" displays the characters and hiding puts bullets back; taking the
 * passphrase or hiding the window empties the field.
 */
class PassphraseFieldIT {
    private final FxRobot robot = new FxRobot();
    private Stage stage;
    private PassphraseField field;

    @BeforeEach
    void show() throws Exception {
        stage = FxToolkit.registerPrimaryStage();
        field = Fx.call(() -> new PassphraseField(Messages.of(Locale.ENGLISH), "pf"));
        Fx.run(() -> {
            stage.setScene(new Scene(new StackPane(field), 400, 80));
            stage.show();
        });
        robot.clickOn("#pf");
    }

    @AfterEach
    void cleanUp() throws Exception {
        FxToolkit.cleanupStages();
    }

    private TextInputControl input() {
        return (TextInputControl) field.lookup("#pf");
    }

    private String passphrase() throws Exception {
        return Fx.call(() -> field.characters().toString());
    }

    private void assertShows(String passphrase) throws Exception {
        assertThat(passphrase()).isEqualTo(passphrase);
        assertThat(input().getText()).as("the field's text is bullets only").isEqualTo("\u2022".repeat(passphrase.length()));
    }

    @Test
    void everyEditIsRecordedWhileTheFieldHoldsOnlyBullets() throws Exception {
        robot.write("abcdef");
        assertShows("abcdef");
        robot.type(KeyCode.LEFT, 2).write("X");
        assertShows("abcdXef");
        robot.type(KeyCode.BACK_SPACE);
        assertShows("abcdef");
        robot.type(KeyCode.DELETE);
        assertShows("abcdf");

        robot.type(KeyCode.HOME).press(KeyCode.SHIFT).type(KeyCode.RIGHT, 2).release(KeyCode.SHIFT).write("Z");
        assertShows("Zcdf");
        robot.press(KeyCode.SHIFT).type(KeyCode.LEFT).release(KeyCode.SHIFT).type(KeyCode.BACK_SPACE);
        assertShows("cdf");

        Fx.run(() -> Clipboard.getSystemClipboard().setContent(Map.of(DataFormat.PLAIN_TEXT, "pasted \uD83D\uDD10\n")));
        robot.type(KeyCode.END).push(KeyCode.CONTROL, KeyCode.V);
        assertShows("cdfpasted \uD83D\uDD10"); // the line break dropped, as a text field drops it
        robot.type(KeyCode.BACK_SPACE);
        assertShows("cdfpasted "); // both halves of the emoji, not one

        robot.type(KeyCode.HOME).write("\u00e4");
        assertShows("\u00e4cdfpasted ");
        char[] taken = Fx.call(field::take);
        assertThat(new String(taken)).isEqualTo("\u00e4cdfpasted ");
        assertShows("");
    }

    @Test
    void cutCopyAndUndoDoNothing() throws Exception {
        Fx.run(() -> Clipboard.getSystemClipboard().setContent(Map.of(DataFormat.PLAIN_TEXT, "before")));
        robot.write("secret words");
        robot.push(KeyCode.CONTROL, KeyCode.A).push(KeyCode.CONTROL, KeyCode.C);
        robot.push(KeyCode.CONTROL, KeyCode.X);
        assertThat(Fx.call(() -> Clipboard.getSystemClipboard().getString())).isEqualTo("before");
        assertShows("secret words");
        robot.type(KeyCode.END).write("!").push(KeyCode.CONTROL, KeyCode.Z);
        assertShows("secret words!");
        robot.push(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.Z).push(KeyCode.CONTROL, KeyCode.Y);
        assertShows("secret words!");
    }

    @Test
    void showDisplaysTheCharactersAndHidingPutsBulletsBack() throws Exception {
        robot.write("secret");
        robot.clickOn("#pf-show");
        assertThat(input().getText()).isEqualTo("secret");
        robot.clickOn("#pf").type(KeyCode.END).write("1").type(KeyCode.LEFT).type(KeyCode.BACK_SPACE);
        assertThat(input().getText()).isEqualTo("secre1");
        robot.clickOn("#pf-show");
        assertShows("secre1");
        assertThat(new String(Fx.call(field::take))).isEqualTo("secre1");
    }

    @Test
    void typingBetweenTheTwoBulletsOfAnEmojiKeepsTheEmoji() throws Exception {
        robot.write("a");
        Fx.run(() -> Clipboard.getSystemClipboard().setContent(Map.of(DataFormat.PLAIN_TEXT, "\uD83D\uDD10")));
        robot.push(KeyCode.CONTROL, KeyCode.V).write("b");
        robot.type(KeyCode.LEFT, 2).write("X"); // the caret between the emoji's two bullets
        assertShows("a\uD83D\uDD10Xb");
    }

    @Test
    void anInputMethodsCompositionEndsAsTheCommittedText() throws Exception {
        robot.write("abcd").type(KeyCode.LEFT, 2);
        imeEvent("\u306b", "", 1);
        imeEvent("\u306b\u307b", "", 2);
        assertShows("ab\u306b\u307bcd");
        imeEvent("", "\u65e5\u672c", 0);
        assertShows("ab\u65e5\u672ccd");
        robot.write("!");
        assertShows("ab\u65e5\u672c!cd");
    }

    private void imeEvent(String composed, String committed, int caret) throws Exception {
        List<InputMethodTextRun> runs = composed.isEmpty() ? List.of()
                : List.of(new InputMethodTextRun(composed, InputMethodHighlight.UNSELECTED_RAW));
        Fx.run(() -> Event.fireEvent(input(), new InputMethodEvent(
                InputMethodEvent.INPUT_METHOD_TEXT_CHANGED, runs, committed, caret)));
    }

    @Test
    void showKeepsTheCaretWhereItWas() throws Exception {
        robot.write("abcdef").type(KeyCode.HOME).type(KeyCode.RIGHT, 2);
        showCharacters(true); // as a click on the eye would, without the click moving the caret
        robot.write("X");
        showCharacters(false);
        robot.write("Y");
        assertShows("abXYcdef");
    }

    private void showCharacters(boolean show) throws Exception {
        Fx.run(() -> ((ToggleButton) field.lookup("#pf-show")).setSelected(show));
    }

    @Test
    void selectAllThenTypeAScreenReadersTextAndCtrlBackspaceReplaceTheWhole() throws Exception {
        robot.write("abcdef").push(KeyCode.CONTROL, KeyCode.A).write("Q");
        assertShows("Q");
        Fx.run(() -> input().executeAccessibleAction(AccessibleAction.SET_TEXT, "hello"));
        assertShows("hello");
        robot.type(KeyCode.END).press(KeyCode.CONTROL).type(KeyCode.BACK_SPACE).release(KeyCode.CONTROL);
        assertShows("");
    }

    @Test
    void hidingTheWindowEmptiesTheField() throws Exception {
        robot.write("secret");
        Fx.run(stage::hide);
        assertShows("");
    }

    /** Every wipe counts as an edit (the buffer is taken): counting edits counts wipes. */
    private int[] countWipes() throws Exception {
        int[] wipes = {0};
        Fx.run(() -> field.edits().addListener((o, a, b) -> wipes[0]++));
        return wipes;
    }

    @Test
    void aFieldTakenOutOfItsWindowAndPutBackWatchesTheWindowOnce() throws Exception {
        StackPane holder = (StackPane) field.getParent();
        Fx.run(() -> {
            for (int i = 0; i < 5; i++) { // as a wizard's page does when the person goes back and forth
                holder.getChildren().remove(field);
                holder.getChildren().add(field);
            }
        });
        Fx.run(() -> input().insertText(0, "secret"));
        int[] wipes = countWipes();
        Fx.run(stage::hide);
        assertShows("");
        assertThat(wipes[0]).as("wipes when the window hides, one per watch left on it").isEqualTo(1);
    }

    @Test
    void aFieldMovedToAnotherWindowIsWipedWhenThatOneHidesNotTheOld() throws Exception {
        Stage other = Fx.call(() -> {
            Stage s = new Stage();
            s.setScene(new Scene(new StackPane(field), 400, 80)); // takes the field out of the first window
            s.show();
            return s;
        });
        Fx.run(() -> input().insertText(0, "secret"));
        Fx.run(stage::hide);
        assertShows("secret");
        Fx.run(other::hide);
        assertShows("");
    }
}
