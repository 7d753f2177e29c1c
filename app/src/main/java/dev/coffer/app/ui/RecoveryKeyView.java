package dev.coffer.app.ui;

import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;

/**
 * Shows the 48 recovery words as a numbered grid (four columns of twelve), easier to copy onto paper
 * without losing one's place than a block of text.
 *
 * <p>Not responsible for where the words come from, for copying them or for when they go ({@code show("")}).
 */
final class RecoveryKeyView extends GridPane {
    private static final int COLUMNS = 4;

    RecoveryKeyView(String id) {
        setId(id);
        getStyleClass().add("recovery-key");
        setHgap(10);
        setVgap(3);
        for (int c = 0; c < COLUMNS; c++) {
            ColumnConstraints cc = new ColumnConstraints();
            cc.setHgrow(Priority.ALWAYS);
            cc.setPercentWidth(100.0 / COLUMNS);
            getColumnConstraints().add(cc);
        }
    }

    /**
     * Replaces the words shown (whitespace-separated; empty shows nothing). The old labels are
     * emptied before they go: whatever still refers to a removed label (focus, accessibility, a
     * skin) then holds no word.
     */
    void show(String words) {
        for (Node cell : getChildren()) {
            for (Node part : ((Parent) cell).getChildrenUnmodifiable()) {
                if (part instanceof Label label) {
                    label.setText("");
                }
            }
        }
        getChildren().clear();
        String[] w = words.isBlank() ? new String[0] : words.strip().split("\\s+");
        int rows = (w.length + COLUMNS - 1) / COLUMNS;
        for (int i = 0; i < w.length; i++) {
            Label number = new Label((i + 1) + ".");
            number.getStyleClass().addAll("muted", "small", "word-number");
            Label word = new Label(w[i]);
            word.getStyleClass().add("word");
            javafx.scene.layout.HBox cell = new javafx.scene.layout.HBox(4, number, word);
            cell.setAlignment(javafx.geometry.Pos.BASELINE_LEFT);
            // column-major: read down the first column, then the next
            add(cell, i / rows, i % rows);
        }
        setVisible(w.length > 0);
        setManaged(w.length > 0);
    }
}
