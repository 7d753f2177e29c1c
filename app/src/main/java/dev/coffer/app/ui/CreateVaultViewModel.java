package dev.coffer.app.ui;

import dev.coffer.app.os.CloudSyncFolders;
import dev.coffer.app.vaults.CreatedVault;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.VaultService;
import dev.coffer.core.vault.CipherCombo;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The create wizard's state and rules, step by step: a name (a valid folder name), a location (an
 * existing folder; cloud-sync folders found on this machine are offered first), a passphrase
 * typed twice (at least 8 characters, zxcvbn strength shown) with the content mode (authenticated
 * by default, length-preserving XTS as the expert choice), then creation in the background and the
 * 48-word recovery key, which must be confirmed as written down before the wizard can finish.
 *
 * <p>Not responsible for the widgets, and never holds the passphrase: the view hands a char[] to
 * {@link #create} and clears its fields.
 */
public final class CreateVaultViewModel {
    /** The wizard's pages in order. */
    public enum Step { NAME, LOCATION, PASSPHRASE, RECOVERY_KEY }

    private final VaultService service;
    private final Background background;
    private final Messages messages;
    private final StrengthMeter meter = new StrengthMeter();
    private final ObjectProperty<Step> step = new SimpleObjectProperty<>(Step.NAME);
    private final StringProperty name = new SimpleStringProperty("");
    private final StringProperty location = new SimpleStringProperty("");
    private final ObservableList<CloudSyncFolders.Found> syncFolders = FXCollections.observableArrayList();
    private final BooleanProperty expertXts = new SimpleBooleanProperty();
    private final IntegerProperty strength = new SimpleIntegerProperty();
    private final StringProperty strengthText = new SimpleStringProperty("");
    private final StringProperty passphraseProblem = new SimpleStringProperty("");
    private final BooleanProperty passphraseAcceptable = new SimpleBooleanProperty();
    private final BooleanProperty busy = new SimpleBooleanProperty();
    private final StringProperty error = new SimpleStringProperty("");
    private final StringProperty recoveryKey = new SimpleStringProperty("");
    private final BooleanProperty recoveryKeyWrittenDown = new SimpleBooleanProperty();
    private final ObjectProperty<ManagedVault> created = new SimpleObjectProperty<>();
    /** Set by {@link #finish}: the wizard is gone, so words arriving now would be held for no one. */
    private boolean finished;

    public CreateVaultViewModel(VaultService service, Background background, Messages messages, Path home) {
        this.service = service;
        this.background = background;
        this.messages = messages;
        syncFolders.setAll(CloudSyncFolders.find(home));
        location.set(syncFolders.isEmpty() ? home.toString() : syncFolders.get(0).folder().toString());
    }

    public Messages messages() { return messages; }
    public ObjectProperty<Step> step() { return step; }
    public StringProperty name() { return name; }
    public StringProperty location() { return location; }
    public ObservableList<CloudSyncFolders.Found> syncFolders() { return syncFolders; }
    public BooleanProperty expertXts() { return expertXts; }
    /** zxcvbn's score, 0 to 4. */
    public IntegerProperty strength() { return strength; }
    public StringProperty strengthText() { return strengthText; }
    public StringProperty passphraseProblem() { return passphraseProblem; }
    public BooleanProperty passphraseAcceptable() { return passphraseAcceptable; }
    public BooleanProperty busy() { return busy; }
    public StringProperty error() { return error; }
    /** The 48 words, four rows of twelve, once created. */
    public StringProperty recoveryKey() { return recoveryKey; }
    public BooleanProperty recoveryKeyWrittenDown() { return recoveryKeyWrittenDown; }
    /** The new vault once the wizard is finished. */
    public ObjectProperty<ManagedVault> created() { return created; }

    /** Why the name cannot be used (message key), or empty. */
    public String nameProblemKey() {
        String n = name.get().strip();
        if (n.isEmpty()) {
            return "create.name.empty";
        }
        if (n.contains("/") || n.contains("\\") || n.equals(".") || n.equals("..") || n.indexOf('\0') >= 0) {
            return "create.name.invalid";
        }
        return "";
    }

    /** Why the location cannot be used (message key), or empty; the vault folder must not exist yet or be empty. */
    public String locationProblemKey() {
        Path loc = locationPath();
        if (loc == null || !Files.isDirectory(loc)) {
            return "create.location.missing";
        }
        Path target = loc.resolve(name.get().strip());
        if (Files.exists(target)) {
            return "create.location.exists";
        }
        return "";
    }

    /** The folder the vault will be created in. */
    public Path vaultFolder() {
        Path loc = locationPath();
        return loc == null ? null : loc.resolve(name.get().strip());
    }

    private Path locationPath() {
        try {
            String l = location.get().strip();
            return l.isEmpty() ? null : Path.of(l).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /** Goes to the next page if this one is complete; the message of what is missing otherwise. */
    public String next() {
        String problem = switch (step.get()) {
            case NAME -> nameProblemKey();
            case LOCATION -> locationProblemKey();
            default -> "";
        };
        if (!problem.isEmpty()) {
            error.set(messages.get(problem));
            return error.get();
        }
        error.set("");
        if (step.get() == Step.NAME) {
            step.set(Step.LOCATION);
        } else if (step.get() == Step.LOCATION) {
            step.set(Step.PASSPHRASE);
        }
        return "";
    }

    public void back() {
        error.set("");
        if (step.get() == Step.LOCATION) {
            step.set(Step.NAME);
        } else if (step.get() == Step.PASSPHRASE && !busy.get()) {
            step.set(Step.LOCATION);
        }
    }

    /** Called as the person types: updates the strength meter and whether the passphrase can be used. */
    public void passphraseTyped(CharSequence passphrase, CharSequence confirmation) {
        StrengthMeter.Estimate e = meter.measure(passphrase, messages.locale(), List.of(name.get()));
        strength.set(e.score());
        String level = passphrase.length() == 0 ? "" : messages.get("strength." + e.score());
        strengthText.set(e.warning().isEmpty() ? level : level + " \u2013 " + e.warning());
        String problemKey = Passphrases.problemKey(passphrase, confirmation);
        passphraseProblem.set(problemKey.isEmpty() || passphrase.length() == 0 ? "" : messages.get(problemKey,
                Passphrases.MIN_LENGTH));
        passphraseAcceptable.set(problemKey.isEmpty());
    }

    public CipherCombo contentMode() {
        return expertXts.get() ? CipherCombo.SIV_XTS : CipherCombo.SIV_XTSHMAC;
    }

    /**
     * Creates the vault in the background (scrypt runs twice: ~1-2 s); then shows the recovery key.
     * Both arrays are wiped.
     */
    public void create(char[] passphrase, char[] confirmation) {
        String problemKey = Passphrases.problemKey(java.nio.CharBuffer.wrap(passphrase), java.nio.CharBuffer.wrap(confirmation));
        Passphrases.wipe(confirmation);
        if (!problemKey.isEmpty() || busy.get()) {
            Passphrases.wipe(passphrase);
            error.set(problemKey.isEmpty() ? "" : messages.get(problemKey, Passphrases.MIN_LENGTH));
            return;
        }
        busy.set(true);
        error.set("");
        Path parent = locationPath();
        String vaultName = name.get().strip();
        CipherCombo mode = contentMode();
        background.run(() -> service.create(parent, vaultName, passphrase, mode), (CreatedVault c) -> {
            busy.set(false);
            created.set(c.vault());
            if (!finished) {
                recoveryKey.set(format(c.recoveryWords()));
            }
            step.set(Step.RECOVERY_KEY);
        }, failure -> {
            busy.set(false);
            error.set(messages.problem(failure));
        });
    }

    /** Four lines of twelve words: easier to copy by hand than one long line. */
    static String format(List<String> words) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < words.size(); i++) {
            sb.append(words.get(i));
            sb.append(i == words.size() - 1 ? "" : (i + 1) % 12 == 0 ? "\n" : " ");
        }
        return sb.toString();
    }

    /** True when the wizard may close: the recovery key was confirmed as written down. */
    public boolean canFinish() {
        return step.get() == Step.RECOVERY_KEY && recoveryKeyWrittenDown.get();
    }

    /** Forgets the recovery key once the wizard closes, and one of a creation still running. */
    public void finish() {
        finished = true;
        recoveryKey.set("");
    }
}
