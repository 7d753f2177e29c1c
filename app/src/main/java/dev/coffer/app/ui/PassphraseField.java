package dev.coffer.app.ui;

import javafx.scene.control.PasswordField;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.StackPane;

/**
 * A masked passphrase field with a "show" toggle. {@link #take()} copies the characters into a
 * char[] (the caller wipes it) and clears the field. While shown, a plain text field displays the
 * same content (JavaFX keeps text in Strings either way; the field is cleared as soon as the
 * passphrase is taken).
 *
 * <p>Not responsible for rules about the passphrase.
 */
public final class PassphraseField extends HBox {
    private final PasswordField masked = new PasswordField();
    private final TextField plain = new TextField();
    private final ToggleButton show = new ToggleButton();

    public PassphraseField(Messages messages, String id) {
        getStyleClass().add("passphrase-field");
        masked.setId(id);
        plain.setId(id + "-plain");
        plain.textProperty().bindBidirectional(masked.textProperty());
        plain.visibleProperty().bind(show.selectedProperty());
        masked.visibleProperty().bind(show.selectedProperty().not());
        show.setGraphic(Icons.of(Icons.EYE, 16));
        show.setTooltip(new Tooltip(messages.get("unlock.show")));
        show.getStyleClass().add("show-toggle");
        show.setId(id + "-show");
        show.setFocusTraversable(true);
        show.selectedProperty().addListener((o, was, now) -> (now ? plain : masked).requestFocus());
        StackPane fields = new StackPane(masked, plain);
        HBox.setHgrow(fields, Priority.ALWAYS);
        getChildren().addAll(fields, show);
        setSpacing(6);
    }

    /** The passphrase as characters; the field is empty afterwards. */
    public char[] take() {
        CharSequence cs = masked.getCharacters();
        char[] out = new char[cs.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = cs.charAt(i);
        }
        masked.clear();
        return out;
    }

    /** The current content, for the strength meter (no copy kept). */
    public CharSequence characters() {
        return masked.getCharacters();
    }

    public PasswordField masked() {
        return masked;
    }

    @Override
    public void requestFocus() {
        (show.isSelected() ? plain : masked).requestFocus();
    }
}
