package dev.coffer.app.ui;

import dev.coffer.app.os.FileManager;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.Problem;
import dev.coffer.app.vaults.VaultException;
import dev.coffer.app.vaults.VaultService;
import java.io.IOException;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The unlock dialog's state and action: unlock with the passphrase in the background (scrypt, then
 * the mount), a wrong passphrase shown inline so the dialog stays open, any other problem shown
 * with its message, and on success the drive revealed in the file manager if the vault says so.
 *
 * <p>Not responsible for reading the passphrase field (the view hands a char[] over and clears the
 * field); the array is wiped by the service.
 */
public final class UnlockViewModel {
    private final ManagedVault vault;
    private final VaultService service;
    private final Background background;
    private final Messages messages;
    private final FileManager fileManager;
    private final BooleanProperty busy = new SimpleBooleanProperty();
    private final BooleanProperty done = new SimpleBooleanProperty();
    private final BooleanProperty wrongPassphrase = new SimpleBooleanProperty();
    private final StringProperty error = new SimpleStringProperty("");

    public UnlockViewModel(ManagedVault vault, VaultService service, Background background, Messages messages,
            FileManager fileManager) {
        this.vault = vault;
        this.service = service;
        this.background = background;
        this.messages = messages;
        this.fileManager = fileManager;
    }

    public ManagedVault vault() {
        return vault;
    }

    public Messages messages() {
        return messages;
    }

    public String title() {
        return messages.get("unlock.title", vault.settings().name());
    }

    /** True while scrypt and the mount run. */
    public BooleanProperty busy() {
        return busy;
    }

    /** True once unlocked: the dialog closes. */
    public BooleanProperty done() {
        return done;
    }

    /** True after a wrong passphrase (the field is marked and gets the focus again). */
    public BooleanProperty wrongPassphrase() {
        return wrongPassphrase;
    }

    /** What went wrong, shown inside the dialog; empty if nothing. */
    public StringProperty error() {
        return error;
    }

    /** Unlocks with {@code passphrase} (taken over and wiped). Ignored while busy or with an empty passphrase. */
    public void unlock(char[] passphrase) {
        if (busy.get() || passphrase.length == 0) {
            Passphrases.wipe(passphrase);
            return;
        }
        busy.set(true);
        error.set("");
        wrongPassphrase.set(false);
        background.run(() -> {
            service.unlock(vault, passphrase);
            return null;
        }, ok -> {
            busy.set(false);
            done.set(true);
            revealIfWanted();
        }, failure -> {
            busy.set(false);
            wrongPassphrase.set(failure instanceof VaultException ve && ve.problem() == Problem.WRONG_PASSPHRASE);
            error.set(messages.problem(failure));
        });
    }

    private void revealIfWanted() {
        if (!vault.settings().revealAfterUnlock() || vault.drive().isEmpty()) {
            return;
        }
        try {
            fileManager.reveal(vault.drive().get().revealTarget());
        } catch (IOException e) {
            error.set(e.getMessage()); // unlocked all the same; the dialog has closed, the main window shows the drive
        }
    }
}
