package dev.coffer.app.ui;

import dev.coffer.app.vaults.MountMethod;
import dev.coffer.app.vaults.Theme;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.Separator;
import javafx.scene.control.Spinner;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The vault options dialog: a General tab (name, auto-lock minutes, open after unlock), a Drive tab
 * (mount method, mount point, read-only) and a Passphrase tab (change, show the recovery key, reset
 * with the recovery key). Save is the default button, Close the cancel button.
 *
 * <p>Not responsible for the operations ({@link VaultOptionsViewModel}).
 */
public final class VaultOptionsDialog {
    private final VaultOptionsViewModel vm;
    private final Messages m;
    private final Stage stage;
    private final TabPane tabs = new TabPane();
    private final Theme theme;
    /** The recovery words typed to reset the passphrase: as secret as the key, emptied when the dialog closes. */
    private final TextArea resetWords = new TextArea();

    VaultOptionsDialog(VaultOptionsViewModel vm, Window owner, Theme theme) {
        this.vm = vm;
        this.theme = theme;
        this.m = vm.messages();
        Tab recoveryTab = tab(m.get("options.recovery.heading"), recovery());
        // the words are on screen only while their tab is: leaving it forgets them (the passphrase shows them again)
        recoveryTab.selectedProperty().addListener((o, was, selected) -> {
            if (!selected) {
                vm.forgetRecoveryKey();
            }
        });
        tabs.getTabs().addAll(tab(m.get("options.general"), general()), tab(m.get("options.mount"), drive()),
                tab(m.get("options.security"), passphrase()), recoveryTab, tab(m.get("options.health"), health()));
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        Label status = Dialogs.wrapping("", "small");
        status.setId("options-status");
        status.textProperty().bind(vm.status());
        vm.failed().addListener((o, a, failed) -> status.getStyleClass().setAll("label", "small",
                failed ? "error-text" : "success-text"));
        Button save = Dialogs.button(m.get("options.save"), "options-save", "primary");
        save.setDefaultButton(true);
        Button close = Dialogs.button(m.get("options.close"), "options-close");
        close.setCancelButton(true);
        BorderPane root = new BorderPane(tabs);
        root.setId("options-dialog");
        root.setPrefSize(600, 560);
        root.setBottom(Dialogs.buttonBar(status, close, save));
        stage = Dialogs.modal(owner, m.get("options.title", vm.vault().settings().name()), root, theme);
        save.setOnAction(e -> vm.save());
        close.setOnAction(e -> stage.close());
        stage.setOnHidden(e -> {
            resetWords.clear(); // also drops the area's undo history, which holds what was typed
            vm.close();
        });
    }

    public Stage stage() {
        return stage;
    }

    public VaultOptionsViewModel viewModel() {
        return vm;
    }

    public TabPane tabs() {
        return tabs;
    }

    public void show() {
        stage.show();
    }

    private static Tab tab(String title, Node content) {
        VBox body = new VBox(content);
        body.getStyleClass().add("dialog-body");
        return new Tab(title, body);
    }

    private Node general() {
        TextField name = new TextField();
        name.setId("options-name");
        name.textProperty().bindBidirectional(vm.name());
        Spinner<Integer> autoLock = new Spinner<>(0, 24 * 60, vm.autoLockMinutes().get(), 5);
        autoLock.setId("options-autolock");
        autoLock.setEditable(true);
        autoLock.valueProperty().addListener((o, a, b) -> vm.autoLockMinutes().set(b == null ? 0 : b));
        CheckBox reveal = new CheckBox(m.get("options.reveal"));
        reveal.selectedProperty().bindBidirectional(vm.revealAfterUnlock());
        CheckBox atStartup = new CheckBox(m.get("options.unlockAtStartup"));
        atStartup.setId("options-unlock-at-startup");
        atStartup.selectedProperty().bindBidirectional(vm.unlockAtStartup());
        GridPane grid = grid();
        grid.addRow(0, label("options.name"), name);
        grid.addRow(1, label("options.autoLock"), autoLock);
        grid.add(reveal, 1, 2);
        grid.add(atStartup, 1, 3);
        grid.add(Dialogs.wrapping(m.get("options.unlockAtStartup.hint"), "muted", "small"), 1, 4);
        Button forget = Dialogs.button(m.get("options.forget"), "options-forget");
        forget.disableProperty().bind(vm.remembered().not().or(vm.busy()));
        forget.setOnAction(e -> vm.forgetRemembered());
        grid.add(forget, 1, 5);
        vm.checkRemembered();
        return grid;
    }

    private Node drive() {
        ComboBox<MountMethod> method = new ComboBox<>();
        method.setId("options-method");
        method.getItems().setAll(MountMethod.values());
        method.setCellFactory(l -> methodCell());
        method.setButtonCell(methodCell());
        method.valueProperty().bindBidirectional(vm.mountMethod());
        TextField point = new TextField();
        point.setId("options-mountpoint");
        point.textProperty().bindBidirectional(vm.mountPoint());
        point.setPromptText(vm.defaultMountPoint());
        CheckBox readOnly = new CheckBox(m.get("options.readOnly"));
        readOnly.setId("options-readonly");
        readOnly.selectedProperty().bindBidirectional(vm.readOnly());
        GridPane grid = grid();
        grid.addRow(0, label("options.method"), method);
        grid.addRow(1, label("options.mountPoint"), point);
        grid.add(readOnly, 1, 2);
        return grid;
    }

    private ListCell<MountMethod> methodCell() {
        return new ListCell<>() {
            @Override
            protected void updateItem(MountMethod item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? null : m.get("options.method." + item.name()));
            }
        };
    }

    private Node passphrase() {
        PassphraseField current = new PassphraseField(m, "options-current");
        PassphraseField fresh = new PassphraseField(m, "options-new");
        PassphraseField again = new PassphraseField(m, "options-again");
        Button change = Dialogs.button(m.get("options.change"), "options-change");
        change.disableProperty().bind(vm.busy());
        change.setOnAction(e -> vm.changePassphrase(current.take(), fresh.take(), again.take()));
        GridPane grid = grid();
        grid.addRow(0, label("options.current"), current);
        grid.addRow(1, label("options.new"), fresh);
        grid.addRow(2, label("options.confirm"), again);
        grid.add(change, 1, 3);
        return new VBox(12, heading("options.change.heading"), grid);
    }

    private Node recovery() {
        PassphraseField forKey = new PassphraseField(m, "options-recovery-passphrase");
        Button show = Dialogs.button(m.get("options.recovery.show"), "options-show-recovery");
        show.disableProperty().bind(vm.busy());
        show.setOnAction(e -> vm.showRecoveryKey(forKey.take()));
        HBox.setHgrow(forKey, Priority.ALWAYS);
        RecoveryKeyView key = new RecoveryKeyView("options-recovery-key");
        key.show(vm.recoveryKey().get());
        vm.recoveryKey().addListener((o, a, b) -> key.show(b));

        resetWords.setId("options-reset-words");
        resetWords.setPromptText(m.get("options.reset.words"));
        resetWords.setPrefRowCount(3);
        resetWords.setWrapText(true);
        PassphraseField resetNew = new PassphraseField(m, "options-reset-new");
        PassphraseField resetAgain = new PassphraseField(m, "options-reset-again");
        Button reset = Dialogs.button(m.get("options.reset"), "options-reset");
        reset.disableProperty().bind(vm.busy());
        reset.setOnAction(e -> {
            vm.resetPassphrase(resetWords.getText(), resetNew.take(), resetAgain.take());
            resetWords.clear();
        });
        GridPane resetGrid = grid();
        resetGrid.addRow(0, label("options.new"), resetNew);
        resetGrid.addRow(1, label("options.confirm"), resetAgain);
        resetGrid.add(reset, 1, 2);

        Label unlockHint = Dialogs.wrapping(m.get("options.current"), "muted");
        VBox box = new VBox(12, unlockHint, new HBox(8, forKey, show), key, new Separator(), heading("options.reset.heading"),
                resetWords, resetGrid);
        box.setAlignment(Pos.TOP_LEFT);
        return box;
    }

    private Node health() {
        PassphraseField pass = new PassphraseField(m, "options-health-passphrase");
        HBox.setHgrow(pass, Priority.ALWAYS);
        Button run = Dialogs.button(m.get("options.health.run"), "options-health-run");
        run.disableProperty().bind(vm.busy());
        run.setOnAction(e -> vm.runHealthCheck(pass.take()));
        TextArea report = new TextArea();
        report.setId("options-health-report");
        report.setEditable(false);
        report.setWrapText(true);
        report.getStyleClass().add("health-report");
        report.textProperty().bind(vm.healthReport());
        report.visibleProperty().bind(vm.healthReport().isNotEmpty());
        report.managedProperty().bind(report.visibleProperty());
        VBox.setVgrow(report, Priority.ALWAYS);
        Button repair = Dialogs.button(m.get("options.health.repair"), "options-health-repair");
        repair.disableProperty().bind(vm.busy());
        repair.visibleProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(() -> !vm.plannedRepairs().get().isEmpty(),
                vm.plannedRepairs()));
        repair.managedProperty().bind(repair.visibleProperty());
        repair.setOnAction(e -> {
            if (Dialogs.confirm(stage, theme, m.get("unlock.cancel"), m.get("options.health.repair.title"), vm.repairQuestion(),
                    m.get("options.health.repair.confirm"), "confirm-repair")) {
                vm.repair(pass.take());
            }
        });
        return new VBox(12, Dialogs.wrapping(m.get("options.health.text"), "muted"), label("options.current"),
                new HBox(8, pass, run, repair), report);
    }

    private Label heading(String key) {
        Label l = new Label(m.get(key));
        l.getStyleClass().add("h3");
        return l;
    }

    private Label label(String key) {
        Label l = new Label(m.get(key));
        l.getStyleClass().add("muted");
        l.setWrapText(true);
        l.setMaxWidth(190);
        return l;
    }

    static GridPane grid() {
        GridPane grid = new GridPane();
        grid.setHgap(14);
        grid.setVgap(12);
        javafx.scene.layout.ColumnConstraints labels = new javafx.scene.layout.ColumnConstraints();
        labels.setMinWidth(150);
        javafx.scene.layout.ColumnConstraints fields = new javafx.scene.layout.ColumnConstraints();
        fields.setHgrow(Priority.ALWAYS);
        grid.getColumnConstraints().addAll(labels, fields);
        return grid;
    }
}
