package dev.coffer.app.ui;

import dev.coffer.app.vaults.MountMethod;
import dev.coffer.app.vaults.Theme;
import java.io.IOException;
import java.util.List;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.Spinner;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The preferences dialog: theme, start minimised, default mount method, WebDAV port, default
 * auto-lock, language, debug logging and "reveal log file". Save is the default button, Cancel the
 * cancel button; the theme applies at once, the language after a restart.
 *
 * <p>Not responsible for storing or applying them ({@link PreferencesViewModel}, the app).
 */
public final class PreferencesDialog {
    private static final List<String> LANGUAGES = List.of("", "en", "de");

    private final PreferencesViewModel vm;
    private final Messages m;
    private final Stage stage;

    PreferencesDialog(PreferencesViewModel vm, GuiContext ctx, Window owner, Theme theme) {
        this.vm = vm;
        this.m = vm.messages();
        ComboBox<Theme> themes = new ComboBox<>();
        themes.setId("prefs-theme");
        themes.getItems().setAll(Theme.values());
        themes.setCellFactory(l -> cell("prefs.theme."));
        themes.setButtonCell(cell("prefs.theme."));
        themes.valueProperty().bindBidirectional(vm.theme());
        CheckBox minimised = new CheckBox(m.get("prefs.startMinimised"));
        minimised.selectedProperty().bindBidirectional(vm.startMinimised());
        ComboBox<MountMethod> method = new ComboBox<>();
        method.getItems().setAll(MountMethod.values());
        method.setCellFactory(l -> cell("options.method."));
        method.setButtonCell(cell("options.method."));
        method.valueProperty().bindBidirectional(vm.defaultMountMethod());
        Spinner<Integer> port = new Spinner<>(0, 65_535, vm.webDavPort().get(), 1);
        port.setId("prefs-port");
        port.setEditable(true);
        port.valueProperty().addListener((o, a, b) -> vm.webDavPort().set(b == null ? 0 : b));
        Spinner<Integer> autoLock = new Spinner<>(0, 24 * 60, vm.autoLockMinutesDefault().get(), 5);
        autoLock.setEditable(true);
        autoLock.valueProperty().addListener((o, a, b) -> vm.autoLockMinutesDefault().set(b == null ? 0 : b));
        ComboBox<String> language = new ComboBox<>();
        language.setId("prefs-language");
        language.getItems().setAll(LANGUAGES);
        language.setCellFactory(l -> languageCell());
        language.setButtonCell(languageCell());
        language.valueProperty().bindBidirectional(vm.language());
        CheckBox debug = new CheckBox(m.get("prefs.debug"));
        debug.setId("prefs-debug");
        debug.selectedProperty().bindBidirectional(vm.debugLogging());
        Button revealLog = Dialogs.button(m.get("prefs.revealLog"), "prefs-reveal-log", "flat");
        revealLog.setGraphic(Icons.of(Icons.FOLDER, 14, "icon-muted"));
        revealLog.setOnAction(e -> {
            try {
                ctx.fileManager().reveal(ctx.logFile().getParent().toUri());
            } catch (IOException ex) {
                vm.status().set(ex.getMessage());
            }
        });

        GridPane grid = VaultOptionsDialog.grid();
        int row = 0;
        grid.addRow(row++, label("prefs.theme"), themes);
        grid.add(minimised, 1, row++);
        grid.addRow(row++, label("prefs.defaultMethod"), method);
        grid.addRow(row++, label("prefs.webDavPort"), port);
        grid.addRow(row++, label("prefs.autoLock"), autoLock);
        grid.addRow(row++, label("prefs.language"), language);
        grid.add(Dialogs.wrapping(m.get("prefs.restart"), "muted", "small"), 1, row++);
        grid.add(new HBox(12, debug, revealLog), 1, row);
        Label status = Dialogs.errorLabel("prefs-status");
        status.textProperty().bind(vm.status());
        VBox body = new VBox(16, Dialogs.heading(m.get("prefs.title"), null), grid, status);
        body.getStyleClass().add("dialog-body");
        body.setPrefWidth(580);

        Button save = Dialogs.button(m.get("prefs.save"), "prefs-save", "primary");
        save.setDefaultButton(true);
        Button cancel = Dialogs.button(m.get("prefs.cancel"), "prefs-cancel");
        cancel.setCancelButton(true);
        BorderPane root = new BorderPane(body);
        root.setId("prefs-dialog");
        root.setBottom(Dialogs.buttonBar(null, cancel, save));
        stage = Dialogs.modal(owner, m.get("prefs.title"), root, theme);
        save.setOnAction(e -> {
            if (vm.save()) {
                stage.close();
            }
        });
        cancel.setOnAction(e -> stage.close());
    }

    public Stage stage() {
        return stage;
    }

    public void show() {
        stage.show();
    }

    private Label label(String key) {
        Label l = new Label(m.get(key));
        l.getStyleClass().add("muted");
        l.setWrapText(true);
        l.setMaxWidth(200);
        return l;
    }

    private <T extends Enum<T>> ListCell<T> cell(String prefix) {
        return new ListCell<>() {
            @Override
            protected void updateItem(T item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? null : m.get(prefix + item.name()));
            }
        };
    }

    private ListCell<String> languageCell() {
        return new ListCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? null : switch (item) {
                    case "" -> m.get("prefs.language.system");
                    case "de" -> "Deutsch";
                    default -> "English";
                });
            }
        };
    }
}
