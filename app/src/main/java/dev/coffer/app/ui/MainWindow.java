package dev.coffer.app.ui;

import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.VaultState;
import java.io.File;
import java.util.List;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Tooltip;
import javafx.scene.input.DragEvent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.TransferMode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * The main window's content: header (brand, preferences), the vault list (drag and drop target,
 * Add vault menu) and the details pane of the selected vault with its main action (Unlock, or
 * Reveal drive and Lock), its facts, its problem, options and remove; above them, the notice of a
 * conflict copy (a program's writes kept under another name) until dismissed. Redrawn from the
 * {@link MainViewModel} whenever a vault changes.
 *
 * <p>Not responsible for the dialogs it opens ({@link Gui} opens them) or for any vault logic.
 */
final class MainWindow {
    private final Gui gui;
    private final MainViewModel vm;
    private final Messages m;
    private final ListView<ManagedVault> list = new ListView<>();
    private final StackPane details = new StackPane();
    /** The lock button shown, the one node of the details bound to the ViewModel (unbound when replaced). */
    private Button lockButton;

    MainWindow(Gui gui, MainViewModel vm) {
        this.gui = gui;
        this.vm = vm;
        this.m = vm.messages();
    }

    Parent build() {
        BorderPane root = new BorderPane();
        root.setId("main-root");
        root.setTop(new VBox(header(), conflictBanner()));
        root.setLeft(sidebar());
        ScrollPane scroll = new ScrollPane(details);
        scroll.setFitToWidth(true);
        scroll.setFitToHeight(true);
        root.setCenter(scroll);
        vm.revision().addListener((o, a, b) -> redraw());
        vm.selected().addListener((o, a, b) -> redraw());
        vm.notice().addListener((o, a, b) -> redraw());
        redraw();
        return root;
    }

    private Node header() {
        javafx.scene.image.ImageView logo = new javafx.scene.image.ImageView(AppIcons.image(64));
        logo.setFitWidth(30);
        logo.setFitHeight(30);
        logo.setSmooth(true);
        Label brand = new Label(m.get("app.name"));
        brand.getStyleClass().add("brand");
        Label tagline = new Label(m.get("app.tagline"));
        tagline.getStyleClass().addAll("muted", "small");
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        Button prefs = Dialogs.button(m.get("main.preferences"), "preferences-button", "flat");
        prefs.setGraphic(Icons.of(Icons.SETTINGS, 16, "icon-muted"));
        prefs.setOnAction(e -> gui.openPreferences());
        HBox header = new HBox(logo, brand, tagline, spacer, prefs);
        header.getStyleClass().add("header");
        return header;
    }

    /**
     * Where a program's writes went after another device replaced or deleted its open file (a
     * conflict copy), above everything, whichever vault is selected, until the person dismisses it.
     */
    private Node conflictBanner() {
        Label text = Dialogs.wrapping("");
        text.setId("conflict-notice");
        text.textProperty().bind(vm.conflictNotice());
        HBox.setHgrow(text, Priority.ALWAYS);
        text.setMaxWidth(Double.MAX_VALUE);
        Button dismiss = Dialogs.button(m.get("conflict.dismiss"), "conflict-dismiss", "flat");
        dismiss.setOnAction(e -> vm.dismissConflictNotice());
        dismiss.setMinWidth(Region.USE_PREF_SIZE); // the text takes the room that is left, never the button's
        HBox banner = new HBox(Icons.of(Icons.WARNING, 16, "icon-warning"), text, dismiss);
        banner.setId("conflict-banner");
        banner.setAlignment(Pos.CENTER_LEFT);
        banner.getStyleClass().addAll("warning-box", "conflict-banner");
        banner.visibleProperty().bind(vm.conflictNotice().isNotEmpty());
        banner.managedProperty().bind(banner.visibleProperty());
        return banner;
    }

    private Node sidebar() {
        Label title = new Label(m.get("main.vaults").toUpperCase(m.locale()));
        title.getStyleClass().add("caps");
        list.setId("vault-list");
        list.setItems(vm.vaults());
        list.setCellFactory(v -> new VaultCell(vm));
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b != null) {
                vm.selected().set(b);
            }
        });
        list.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                mainAction();
            } else if (e.getCode() == KeyCode.DELETE) {
                confirmRemove();
            }
        });
        list.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2) {
                mainAction();
            }
        });
        list.setTooltip(new Tooltip(m.get("main.drop")));
        acceptDrops(list);
        VBox.setVgrow(list, Priority.ALWAYS);

        MenuItem create = new MenuItem(m.get("main.add.create"));
        create.setId("add-create");
        create.setOnAction(e -> gui.openCreate());
        MenuItem open = new MenuItem(m.get("main.add.open"));
        open.setId("add-open");
        open.setOnAction(e -> gui.chooseExisting());
        MenuItem openFolder = new MenuItem(m.get("main.add.openFolder"));
        openFolder.setId("add-open-folder");
        openFolder.setOnAction(e -> gui.chooseExistingFolder());
        MenuButton add = new MenuButton(m.get("main.add"), Icons.of(Icons.PLUS, 14, "icon-on-accent"), create, open, openFolder);
        add.setId("add-vault");
        add.getStyleClass().add("primary");
        add.setMaxWidth(Double.MAX_VALUE);
        VBox sidebar = new VBox(title, list, add);
        sidebar.getStyleClass().add("sidebar");
        return sidebar;
    }

    private void acceptDrops(Node target) {
        target.setOnDragOver(e -> {
            if (e.getDragboard().hasFiles()) {
                e.acceptTransferModes(TransferMode.LINK, TransferMode.COPY);
                target.getStyleClass().add("drop-target");
            }
            e.consume();
        });
        target.setOnDragExited(e -> target.getStyleClass().remove("drop-target"));
        target.setOnDragDropped(this::dropped);
    }

    private void dropped(DragEvent e) {
        List<File> files = e.getDragboard().hasFiles() ? e.getDragboard().getFiles() : List.of();
        e.setDropCompleted(vm.addDropped(files.stream().map(File::toPath).toList()));
        e.consume();
    }

    private void redraw() {
        ManagedVault v = vm.selected().get();
        if (v != null && list.getSelectionModel().getSelectedItem() != v) {
            list.getSelectionModel().select(v);
        }
        list.refresh();
        if (lockButton != null) {
            // the binding would keep every replaced button on vm.busy() until it happened to be collected
            lockButton.disableProperty().unbind();
            lockButton = null;
        }
        details.getChildren().setAll(v == null ? emptyState() : details(v));
    }

    private Node emptyState() {
        javafx.scene.image.ImageView hero = new javafx.scene.image.ImageView(AppIcons.image(128));
        hero.setFitWidth(88);
        hero.setFitHeight(88);
        hero.setSmooth(true);
        Label title = new Label(m.get("main.empty.title"));
        title.getStyleClass().add("h2");
        Label text = Dialogs.wrapping(m.get("main.empty.text"), "muted");
        text.setMaxWidth(360);
        text.setAlignment(Pos.CENTER);
        text.setTextAlignment(javafx.scene.text.TextAlignment.CENTER);
        Button create = Dialogs.button(m.get("main.add.create"), "empty-create", "primary", "big");
        create.setOnAction(e -> gui.openCreate());
        Button open = Dialogs.button(m.get("main.add.open"), "empty-open", "big");
        open.setOnAction(e -> gui.chooseExisting());
        HBox buttons = new HBox(10, create, open);
        buttons.setAlignment(Pos.CENTER);
        VBox box = new VBox(hero, title, text, buttons, notice());
        box.getStyleClass().add("empty-state");
        acceptDrops(box);
        return box;
    }

    private Node details(ManagedVault v) {
        VaultState state = v.state();
        String look = state == VaultState.UNLOCKED ? "unlocked" : state == VaultState.ERROR ? "error" : "locked";
        StackPane hero = new StackPane(Icons.of(state == VaultState.UNLOCKED ? Icons.UNLOCK : Icons.LOCK, 30,
                state == VaultState.UNLOCKED ? "icon-success" : state == VaultState.ERROR ? "icon-danger" : "icon-accent"));
        hero.getStyleClass().addAll("hero-icon", look);
        Label name = new Label(v.settings().name());
        name.setId("details-name");
        name.getStyleClass().add("h1");
        Label badge = new Label(m.get("state." + state.name()));
        badge.setId("details-state");
        badge.getStyleClass().addAll("badge", state == VaultState.UNLOCKING || state == VaultState.LOCKING ? "busy" : look);
        VBox titles = new VBox(6, name, badge);
        titles.setAlignment(Pos.CENTER_LEFT);
        HBox top = new HBox(18, hero, titles);
        top.setAlignment(Pos.CENTER_LEFT);

        VBox box = new VBox(top, facts(v));
        box.getStyleClass().add("details");
        v.problem().ifPresent(p -> {
            HBox problem = new HBox(Icons.of(Icons.WARNING, 16, "icon-danger"), Dialogs.wrapping(vm.problemText(v)));
            problem.setId("details-problem");
            problem.getStyleClass().add("problem-box");
            box.getChildren().add(problem);
        });
        String storeWarnings = vm.storeWarningsText(v);
        if (!storeWarnings.isEmpty()) {
            HBox warnings = new HBox(Icons.of(Icons.WARNING, 16, "icon-warning"), Dialogs.wrapping(storeWarnings));
            warnings.setId("details-store-warnings");
            warnings.getStyleClass().add("warning-box");
            box.getChildren().add(warnings);
        }
        box.getChildren().add(actions(v));
        Region spacer = new Region();
        VBox.setVgrow(spacer, Priority.ALWAYS);
        Button options = Dialogs.button(m.get("main.options"), "options-button");
        options.setGraphic(Icons.of(Icons.SETTINGS, 14));
        options.setOnAction(e -> gui.openOptions(v));
        Button remove = Dialogs.button(m.get("main.remove"), "remove-button", "flat", "danger");
        remove.setOnAction(e -> confirmRemove());
        remove.setDisable(state != VaultState.LOCKED && state != VaultState.ERROR);
        HBox bottom = new HBox(10, options, remove);
        box.getChildren().addAll(notice(), spacer, bottom);
        return box;
    }

    private Node facts(ManagedVault v) {
        GridPane grid = new GridPane();
        grid.setHgap(14);
        grid.setVgap(8);
        addFact(grid, 0, Icons.FOLDER, m.get("main.folder"), v.settings().folder(), "details-folder");
        v.drive().ifPresent(d -> addFact(grid, 1, Icons.DRIVE, m.get("main.drive"), d.location(), "details-drive"));
        VBox card = new VBox(grid);
        card.getStyleClass().add("card");
        return card;
    }

    private static void addFact(GridPane grid, int row, String icon, String label, String value, String id) {
        Label l = new Label(label);
        l.getStyleClass().add("fact-label");
        l.setGraphic(Icons.of(icon, 14, "icon-muted"));
        Label val = new Label(value);
        val.setId(id);
        val.getStyleClass().add("fact-value");
        val.setWrapText(true);
        grid.addRow(row, l, val);
    }

    private Node actions(ManagedVault v) {
        HBox row = new HBox(10);
        row.setAlignment(Pos.CENTER_LEFT);
        switch (v.state()) {
            case LOCKED, ERROR -> {
                Button unlock = Dialogs.button(m.get("main.unlock"), "unlock-button", "primary", "big");
                unlock.setGraphic(Icons.of(Icons.KEY, 15, "icon-on-accent"));
                unlock.setOnAction(e -> gui.openUnlock(v));
                row.getChildren().add(unlock);
            }
            case UNLOCKED -> {
                Button reveal = Dialogs.button(m.get("main.reveal"), "reveal-button", "primary", "big");
                reveal.setGraphic(Icons.of(Icons.DRIVE, 15, "icon-on-accent"));
                reveal.setOnAction(e -> vm.revealSelected());
                Button lock = Dialogs.button(m.get("main.lock"), "lock-button", "big");
                lock.setGraphic(Icons.of(Icons.LOCK, 15));
                lock.setOnAction(e -> vm.lockSelected());
                lock.disableProperty().bind(vm.busy());
                lockButton = lock;
                row.getChildren().addAll(reveal, lock);
            }
            case UNLOCKING, LOCKING -> {
                ProgressIndicator p = new ProgressIndicator();
                p.setPrefSize(22, 22);
                row.getChildren().addAll(p, new Label(m.get("state." + v.state().name())));
            }
        }
        return row;
    }

    private Label notice() {
        Label n = Dialogs.wrapping(vm.notice().get(), "notice");
        n.setId("main-notice");
        n.setManaged(!vm.notice().get().isEmpty());
        return n;
    }

    private void mainAction() {
        ManagedVault v = vm.selected().get();
        if (v == null) {
            return;
        }
        if (v.state() == VaultState.LOCKED || v.state() == VaultState.ERROR) {
            gui.openUnlock(v);
        } else if (v.state() == VaultState.UNLOCKED) {
            vm.revealSelected();
        }
    }

    private void confirmRemove() {
        ManagedVault v = vm.selected().get();
        if (v != null && gui.confirm(m.get("main.remove"), m.get("main.remove.confirm", v.settings().name()),
                m.get("main.remove"), "confirm-remove")) {
            vm.removeSelected();
        }
    }
}
