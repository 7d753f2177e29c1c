package dev.coffer.app.ui;

import dev.coffer.app.vaults.Theme;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The unlock dialog: the passphrase field (masked, with show) focused, Unlock as the default
 * button and Cancel as the cancel button, a wrong passphrase shown inline (the field is marked and
 * focused again), an indeterminate progress while scrypt and the mount run; closes when unlocked.
 *
 * <p>Not responsible for unlocking ({@link UnlockViewModel}).
 */
public final class UnlockDialog {
    private final UnlockViewModel vm;
    private final Stage stage;
    private final PassphraseField passphrase;

    UnlockDialog(UnlockViewModel vm, Window owner, Theme theme) {
        this.vm = vm;
        Messages m = vm.messages();
        StackPane hero = new StackPane(Icons.of(Icons.LOCK, 22, "icon-accent"));
        hero.getStyleClass().add("hero-icon");
        hero.setStyle("-fx-min-width: 48; -fx-min-height: 48; -fx-max-width: 48; -fx-max-height: 48; -fx-background-radius: 14;");
        Label heading = new Label(m.get("unlock.heading", vm.vault().settings().name()));
        heading.getStyleClass().add("h2");
        Label folder = new Label(vm.vault().settings().folder());
        folder.getStyleClass().addAll("muted", "small");
        HBox top = new HBox(14, hero, new VBox(4, heading, folder));
        top.setAlignment(Pos.CENTER_LEFT);

        Label label = new Label(m.get("unlock.passphrase"));
        label.getStyleClass().add("h3");
        passphrase = new PassphraseField(m, "unlock-passphrase");
        label.setLabelFor(passphrase.field());
        Label error = Dialogs.errorLabel("unlock-error");
        error.textProperty().bind(vm.error());
        ProgressIndicator progress = new ProgressIndicator();
        progress.setPrefSize(18, 18);
        HBox working = new HBox(8, progress, new Label(m.get("unlock.working")));
        working.setAlignment(Pos.CENTER_LEFT);
        working.visibleProperty().bind(vm.busy());
        working.managedProperty().bind(vm.busy());
        javafx.scene.control.CheckBox remember = new javafx.scene.control.CheckBox(m.get("unlock.remember"));
        remember.setId("unlock-remember");
        remember.selectedProperty().bindBidirectional(vm.remember());
        VBox rememberBox = new VBox(4, remember);
        vm.keyringUnavailable().ifPresent(reason -> {
            remember.setDisable(true);
            Label why = Dialogs.wrapping(m.get("unlock.noKeyring"), "muted", "small");
            why.setTooltip(new javafx.scene.control.Tooltip(reason));
            rememberBox.getChildren().add(why);
        });
        VBox body = new VBox(top, new VBox(6, label, passphrase, error), rememberBox, working);
        body.getStyleClass().add("dialog-body");
        body.setPrefWidth(470);

        Button unlock = Dialogs.button(m.get("unlock.unlock"), "unlock-submit", "primary");
        unlock.setDefaultButton(true);
        unlock.disableProperty().bind(vm.busy());
        Button cancel = Dialogs.button(m.get("unlock.cancel"), "unlock-cancel");
        cancel.setCancelButton(true);
        cancel.disableProperty().bind(vm.busy());
        BorderPane root = new BorderPane(body);
        root.setBottom(Dialogs.buttonBar(null, cancel, unlock));
        root.setId("unlock-dialog");
        stage = Dialogs.modal(owner, vm.title(), root, theme);
        stage.setResizable(false);

        passphrase.disableProperty().bind(vm.busy());
        unlock.setOnAction(e -> vm.unlock(passphrase.take()));
        cancel.setOnAction(e -> stage.close());
        vm.done().addListener((o, a, done) -> {
            if (done) {
                stage.close();
            }
        });
        vm.wrongPassphrase().addListener((o, a, wrong) -> {
            passphrase.field().getStyleClass().remove("invalid");
            if (wrong) {
                passphrase.field().getStyleClass().add("invalid");
            }
        });
        vm.busy().addListener((o, a, busy) -> {
            if (!busy) {
                passphrase.requestFocus(); // disabled while busy, which dropped the focus
            }
        });
        stage.setOnShown(e -> passphrase.requestFocus());
        // the error and the progress line take room only when shown: fit the window to them
        vm.error().addListener((o, a, b) -> stage.sizeToScene());
        vm.busy().addListener((o, a, b) -> stage.sizeToScene());
    }

    public void show() {
        stage.show();
        stage.toFront();
    }

    public Stage stage() {
        return stage;
    }

    public UnlockViewModel viewModel() {
        return vm;
    }
}
