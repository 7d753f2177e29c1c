package dev.coffer.app.ui;

import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.value.ChangeListener;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.scene.AccessibleRole;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.TextFormatter;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.stage.Window;

/**
 * A passphrase field with a "show" toggle that keeps the passphrase only in a {@code char[]} it
 * owns ({@link SecretBuffer}): the text field itself holds one bullet per character, and a
 * {@link TextFormatter} records each edit (typing, deleting, replacing a selection, pasting) into
 * the buffer before turning the inserted characters into bullets. JavaFX's PasswordField kept the
 * passphrase in Strings (its content and its text property) for as long as the dialog lived.
 *
 * <p>Cut and copy do nothing, and undo and redo are off (they would replay bullets past the
 * buffer). Only while "show" is on does the field display the real characters, which JavaFX can
 * only draw from a String; turning it off puts bullets back. {@link #take()} hands the characters
 * over and wipes the buffer, as does hiding the window the field is in.
 *
 * <p>Not responsible for rules about the passphrase.
 */
public final class PassphraseField extends HBox {
    static final char BULLET = '\u2022';
    private static final KeyCombination[] UNDO_REDO = {
        KeyCombination.keyCombination("Shortcut+Z"), KeyCombination.keyCombination("Shortcut+Shift+Z"),
        KeyCombination.keyCombination("Shortcut+Y")};

    private final SecretBuffer secret = new SecretBuffer();
    private final TextField field = new TextField() {
        @Override
        public void cut() {
            // never puts the passphrase on the clipboard
        }

        @Override
        public void copy() {
            // never puts the passphrase on the clipboard
        }
    };
    private final ToggleButton show = new ToggleButton();
    private final ReadOnlyIntegerWrapper edits = new ReadOnlyIntegerWrapper();
    /** On the showing property of the window the field is in, and only that one. */
    private final ChangeListener<Boolean> wipeWhenHidden = (o, was, showing) -> {
        if (!showing) {
            clear();
        }
    };
    /** On the window property of the field's scene: the scene can be put into another window. */
    private final ChangeListener<Window> followWindow = (o, oldWindow, window) -> watch(oldWindow, window);
    /** Set while this class replaces the field's text itself (show, hide, clear): no edit of the passphrase. */
    private boolean redrawing;

    public PassphraseField(Messages messages, String id) {
        getStyleClass().add("passphrase-field");
        field.getStyleClass().add("password-field");
        field.setAccessibleRole(AccessibleRole.PASSWORD_FIELD); // screen readers treat it as PasswordField
        field.setId(id);
        field.setTextFormatter(new TextFormatter<>(this::record));
        field.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            for (KeyCombination undoOrRedo : UNDO_REDO) {
                if (undoOrRedo.match(e)) {
                    e.consume();
                }
            }
        });
        MenuItem paste = new MenuItem(messages.get("passphrase.paste"));
        paste.setOnAction(e -> field.paste());
        MenuItem selectAll = new MenuItem(messages.get("passphrase.selectAll"));
        selectAll.setOnAction(e -> field.selectAll());
        field.setContextMenu(new ContextMenu(paste, selectAll)); // not the default one with undo, cut and copy
        show.setGraphic(Icons.of(Icons.EYE, 16));
        show.setTooltip(new Tooltip(messages.get("unlock.show")));
        show.getStyleClass().add("show-toggle");
        show.setId(id + "-show");
        show.setFocusTraversable(true);
        show.selectedProperty().addListener((o, was, now) -> {
            redraw();
            field.requestFocus();
        });
        // Moved out of a scene and back (a wizard's page gone back to), the field must leave nothing on
        // the old scene and window: each such listener would wipe it again, or wipe it when a window it
        // left hides.
        sceneProperty().addListener((o, oldScene, scene) -> {
            if (oldScene != null) {
                oldScene.windowProperty().removeListener(followWindow);
                watch(oldScene.getWindow(), null);
            }
            if (scene != null) {
                scene.windowProperty().addListener(followWindow);
                watch(null, scene.getWindow());
            }
        });
        HBox.setHgrow(field, Priority.ALWAYS);
        getChildren().addAll(field, show);
        setSpacing(6);
    }

    /** Applies an edit of the field to the buffer and lets only bullets (or, shown, the same characters) in. */
    private TextFormatter.Change record(TextFormatter.Change change) {
        if (redrawing || !change.isContentChange()) {
            return change;
        }
        int[] range = secret.wholeCodePoints(change.getRangeStart(), change.getRangeEnd());
        // The characters a TextField drops (line breaks, tabs, other controls), dropped here first.
        String typed = change.getText();
        StringBuilder kept = new StringBuilder(typed.length());
        for (int i = 0; i < typed.length(); i++) {
            char c = typed.charAt(i);
            if (c >= 0x20 && c != 0x7F) {
                kept.append(c);
            }
        }
        secret.replace(range[0], range[1], kept);
        int caret = range[0] + kept.length();
        change.setRange(range[0], range[1]);
        change.setText(show.isSelected() ? kept.toString() : bullets(kept.length()));
        change.selectRange(caret, caret);
        wipe(kept);
        edits.set(edits.get() + 1);
        return change;
    }

    private void redraw() {
        int anchor = Math.min(field.getAnchor(), secret.length());
        int caret = Math.min(field.getCaretPosition(), secret.length());
        redrawing = true;
        try {
            field.setText(show.isSelected() ? secret.view().toString() : bullets(secret.length()));
            field.selectRange(anchor, caret); // where it was: typing on after "show" goes where the person looks
        } finally {
            redrawing = false;
        }
    }

    /** Moves the wipe from the window the field left to the one it is in now. */
    private void watch(Window left, Window now) {
        if (left != null) {
            left.showingProperty().removeListener(wipeWhenHidden);
        }
        if (now != null) {
            now.showingProperty().addListener(wipeWhenHidden);
        }
    }

    private static String bullets(int count) {
        return String.valueOf(BULLET).repeat(count);
    }

    private static void wipe(StringBuilder b) {
        for (int i = 0; i < b.length(); i++) {
            b.setCharAt(i, '\0');
        }
        b.setLength(0);
    }

    /** The passphrase as characters; the field is empty afterwards. */
    public char[] take() {
        char[] out = secret.take();
        redraw();
        edits.set(edits.get() + 1);
        return out;
    }

    /** Empties the field and wipes the buffer. */
    public void clear() {
        Passphrases.wipe(take());
    }

    /** The current content, for the strength meter: a view of the buffer, valid until the next edit. */
    public CharSequence characters() {
        return secret.view();
    }

    /** Counts edits of the passphrase (also those that keep its length, which the bullets do not show). */
    public ReadOnlyIntegerProperty edits() {
        return edits.getReadOnlyProperty();
    }

    /** The text field (for a label, a style class, tests); its text is bullets, not the passphrase. */
    public TextField field() {
        return field;
    }

    @Override
    public void requestFocus() {
        field.requestFocus();
    }
}
