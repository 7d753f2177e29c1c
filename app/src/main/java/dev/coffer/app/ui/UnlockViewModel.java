package dev.coffer.app.ui;

import dev.coffer.app.os.FileManager;
import dev.coffer.app.os.PassphraseStore;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.Problem;
import dev.coffer.app.vaults.VaultException;
import dev.coffer.app.vaults.VaultService;
import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;
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
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(UnlockViewModel.class);

    private final ManagedVault vault;
    private final VaultService service;
    private final Background background;
    private final Messages messages;
    private final FileManager fileManager;
    private final BooleanProperty busy = new SimpleBooleanProperty();
    private final BooleanProperty done = new SimpleBooleanProperty();
    private final BooleanProperty wrongPassphrase = new SimpleBooleanProperty();
    private final StringProperty error = new SimpleStringProperty("");
    private final BooleanProperty remember = new SimpleBooleanProperty();
    private final PassphraseStore keyring;

    public UnlockViewModel(ManagedVault vault, VaultService service, Background background, Messages messages,
            FileManager fileManager, PassphraseStore keyring) {
        this.vault = vault;
        this.service = service;
        this.background = background;
        this.messages = messages;
        this.fileManager = fileManager;
        this.keyring = keyring;
    }

    /** "Remember in the system keyring", ticked by the person. */
    public BooleanProperty remember() {
        return remember;
    }

    /** Why the keyring cannot be used (the option is disabled with this as explanation), or empty. */
    public Optional<String> keyringUnavailable() {
        return keyring.unavailableReason();
    }

    /** Unlocks with the passphrase remembered in the keyring, if there is one; true if it is trying. */
    public void tryRemembered() {
        if (keyring.unavailableReason().isPresent() || busy.get()) {
            return;
        }
        busy.set(true);
        background.run(() -> keyring.load(vault.id()).orElse(null), saved -> {
            busy.set(false);
            if (saved != null) {
                remember.set(true);
                unlock(saved, true);
            }
        }, failure -> {
            busy.set(false);
            error.set(failure.getMessage());
        });
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
        unlock(passphrase, false);
    }

    private void unlock(char[] passphrase, boolean remembered) {
        if (busy.get() || passphrase.length == 0) {
            Passphrases.wipe(passphrase);
            return;
        }
        busy.set(true);
        error.set("");
        wrongPassphrase.set(false);
        boolean keep = remember.get() && keyring.unavailableReason().isEmpty();
        char[] forKeyring = keep && !remembered ? Arrays.copyOf(passphrase, passphrase.length) : null;
        background.run(() -> {
            try {
                service.unlock(vault, passphrase);
                rememberOrForget(forKeyring, keep || remembered);
                return null;
            } catch (VaultException e) {
                if (remembered && e.problem() == Problem.WRONG_PASSPHRASE) {
                    keyring.delete(vault.id()); // changed elsewhere: the remembered one is useless now
                }
                throw e;
            } finally {
                Passphrases.wipe(forKeyring);
            }
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

    /** After a successful unlock: a keyring that fails must not undo it, so its problem is only logged. */
    private void rememberOrForget(char[] forKeyring, boolean keep) {
        try {
            if (forKeyring != null) {
                keyring.save(vault.id(), forKeyring);
            } else if (!keep) {
                keyring.delete(vault.id()); // unticked: forget what was remembered before
            }
        } catch (IOException e) {
            LOG.warn("the system keyring: {}", e.getMessage());
        }
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
