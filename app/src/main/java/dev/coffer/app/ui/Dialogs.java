package dev.coffer.app.ui;

import dev.coffer.app.vaults.Theme;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * Small builders shared by the views: a themed modal stage, a button bar with default and cancel
 * buttons, a heading with its explanation, a wrapping label, a yes/no question.
 *
 * <p>Not responsible for any dialog's content.
 */
final class Dialogs {
    private Dialogs() {}

    /** A modal window owned by {@code owner}, styled with the theme. */
    static Stage modal(Window owner, String title, Parent root, Theme theme) {
        Stage stage = new Stage();
        if (owner != null) {
            stage.initOwner(owner);
            stage.initModality(Modality.WINDOW_MODAL);
        } else {
            stage.initModality(Modality.APPLICATION_MODAL);
        }
        stage.setTitle(title);
        stage.getIcons().setAll(AppIcons.windowIcons());
        root.getStyleClass().add("dialog-root");
        Scene scene = new Scene(root);
        Themes.apply(scene, theme);
        stage.setScene(scene);
        return stage;
    }

    static Button button(String text, String id, String... styleClasses) {
        Button b = new Button(text);
        b.setId(id);
        b.getStyleClass().addAll(styleClasses);
        return b;
    }

    /** The row of buttons at the bottom of a dialog, right-aligned, with {@code left} on the left. */
    static HBox buttonBar(Node left, Button... buttons) {
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox bar = new HBox();
        bar.getStyleClass().add("dialog-buttons");
        if (left != null) {
            bar.getChildren().add(left);
        }
        bar.getChildren().add(spacer);
        bar.getChildren().addAll(buttons);
        bar.setAlignment(Pos.CENTER_RIGHT);
        return bar;
    }

    static VBox heading(String title, String text) {
        Label h = new Label(title);
        h.getStyleClass().add("h2");
        h.setWrapText(true);
        VBox box = new VBox(6, h);
        if (text != null) {
            box.getChildren().add(wrapping(text, "muted"));
        }
        return box;
    }

    static Label wrapping(String text, String... styleClasses) {
        Label l = new Label(text);
        l.setWrapText(true);
        l.setMinHeight(Region.USE_PREF_SIZE);
        l.getStyleClass().addAll(styleClasses);
        return l;
    }

    /** A label that shows the error text and takes no room while empty. */
    static Label errorLabel(String id) {
        Label l = wrapping("", "error-text");
        l.setId(id);
        l.managedProperty().bind(l.textProperty().isNotEmpty());
        l.visibleProperty().bind(l.textProperty().isNotEmpty());
        return l;
    }

    /**
     * A themed yes/no question, waited for; true if the person chose {@code yes}. Cancel (Esc) has the
     * focus, for safety: Enter alone does not say yes.
     */
    static boolean confirm(Window owner, Theme theme, String cancelText, String title, String text, String yes, String id) {
        Button ok = button(yes, id, "primary");
        Button cancel = button(cancelText, id + "-cancel");
        cancel.setCancelButton(true);
        VBox body = new VBox(heading(title, text));
        body.getStyleClass().add("dialog-body");
        body.setPrefWidth(460);
        BorderPane root = new BorderPane(body);
        root.setBottom(buttonBar(null, cancel, ok));
        Stage dialog = modal(owner, title, root, theme);
        boolean[] answer = {false};
        ok.setOnAction(e -> {
            answer[0] = true;
            dialog.close();
        });
        cancel.setOnAction(e -> dialog.close());
        dialog.setOnShown(e -> cancel.requestFocus());
        dialog.showAndWait();
        return answer[0];
    }
}
