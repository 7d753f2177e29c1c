package dev.coffer.app.ui;

import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.VaultState;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.layout.HBox;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * One row of the vault list: a lock icon coloured by state, the name, and the state line.
 *
 * <p>Not responsible for selection or actions (the main window).
 */
final class VaultCell extends ListCell<ManagedVault> {
    private final MainViewModel vm;

    VaultCell(MainViewModel vm) {
        this.vm = vm;
    }

    @Override
    protected void updateItem(ManagedVault vault, boolean empty) {
        super.updateItem(vault, empty);
        setText(null);
        if (empty || vault == null) {
            setGraphic(null);
            return;
        }
        VaultState state = vault.state();
        StackPane icon = new StackPane(Icons.of(state == VaultState.UNLOCKED ? Icons.UNLOCK : Icons.LOCK, 16,
                state == VaultState.UNLOCKED ? "icon-success" : state == VaultState.ERROR ? "icon-danger" : "icon-muted"));
        icon.getStyleClass().add("row-icon");
        icon.getStyleClass().add(state == VaultState.UNLOCKED ? "unlocked" : state == VaultState.ERROR ? "error" : "locked");
        Label name = new Label(vault.settings().name());
        name.getStyleClass().add("name");
        Label line = new Label(state == VaultState.UNLOCKED ? vm.messages().get("state.UNLOCKED") : vm.stateText(vault));
        line.getStyleClass().addAll("muted", "small");
        Label folder = new Label(vault.settings().folder());
        folder.getStyleClass().addAll("muted", "small");
        folder.setMaxWidth(200);
        VBox text = new VBox(2, name, line);
        HBox row = new HBox(icon, text);
        row.getStyleClass().add("vault-row");
        setGraphic(row);
    }
}
