package dev.coffer.app.ui;

import dev.coffer.app.os.PassphraseStore;
import dev.coffer.app.vaults.HealthCheck;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.MountMethod;
import dev.coffer.app.vaults.VaultKeys;
import dev.coffer.app.vaults.VaultService;
import java.io.IOException;
import java.nio.CharBuffer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The vault options dialog: the vault's settings (name, mount method and point, read-only,
 * auto-lock minutes, unlock at startup, reveal after unlock) saved on {@link #save()}, and the
 * passphrase operations run in the background: change the passphrase, show the recovery key (asks
 * the passphrase), reset the passphrase with the recovery key. Every passphrase array is wiped; a
 * passphrase remembered in the system keyring is replaced by the new one. Also runs the health
 * check of a locked vault, shows its report and the repairs it plans, and makes them once the
 * person has confirmed; forgets a passphrase remembered in the keyring.
 *
 * <p>Not responsible for the widgets.
 */
public final class VaultOptionsViewModel {
    private final ManagedVault vault;
    private final VaultService service;
    private final Background background;
    private final Messages messages;
    private final StringProperty name = new SimpleStringProperty();
    private final ObjectProperty<MountMethod> mountMethod = new SimpleObjectProperty<>();
    private final StringProperty mountPoint = new SimpleStringProperty();
    private final BooleanProperty readOnly = new SimpleBooleanProperty();
    private final IntegerProperty autoLockMinutes = new SimpleIntegerProperty();
    private final BooleanProperty unlockAtStartup = new SimpleBooleanProperty();
    private final BooleanProperty revealAfterUnlock = new SimpleBooleanProperty();
    private final BooleanProperty busy = new SimpleBooleanProperty();
    private final StringProperty status = new SimpleStringProperty("");
    private final BooleanProperty failed = new SimpleBooleanProperty();
    private final StringProperty recoveryKey = new SimpleStringProperty("");
    /** Counts requests to show the key and forgets of it: words arriving for an older request are dropped. */
    private int recoveryKeyRequests;
    private final PassphraseStore keyring;
    private final StringProperty healthReport = new SimpleStringProperty("");
    private final BooleanProperty remembered = new SimpleBooleanProperty();
    private final ObjectProperty<java.util.List<String>> plannedRepairs = new SimpleObjectProperty<>(java.util.List.of());

    public VaultOptionsViewModel(ManagedVault vault, VaultService service, Background background, Messages messages,
            PassphraseStore keyring) {
        this.vault = vault;
        this.service = service;
        this.background = background;
        this.messages = messages;
        this.keyring = keyring;
        var s = vault.settings();
        name.set(s.name());
        mountMethod.set(s.mountMethod());
        mountPoint.set(s.mountPoint());
        readOnly.set(s.readOnly());
        autoLockMinutes.set(s.autoLockMinutes());
        unlockAtStartup.set(s.unlockAtStartup());
        revealAfterUnlock.set(s.revealAfterUnlock());
    }

    public ManagedVault vault() { return vault; }
    public Messages messages() { return messages; }
    public StringProperty name() { return name; }
    public ObjectProperty<MountMethod> mountMethod() { return mountMethod; }
    public StringProperty mountPoint() { return mountPoint; }
    public BooleanProperty readOnly() { return readOnly; }
    public IntegerProperty autoLockMinutes() { return autoLockMinutes; }
    public BooleanProperty unlockAtStartup() { return unlockAtStartup; }
    public BooleanProperty revealAfterUnlock() { return revealAfterUnlock; }
    public BooleanProperty busy() { return busy; }
    /** The outcome of the last operation, shown under it. */
    public StringProperty status() { return status; }
    /** True if {@link #status()} reports a failure. */
    public BooleanProperty failed() { return failed; }
    /** The recovery key after {@link #showRecoveryKey}; cleared by {@link #forgetRecoveryKey} and {@link #close}. */
    public StringProperty recoveryKey() { return recoveryKey; }

    /** The default mount point shown as the prompt when none is set. */
    public String defaultMountPoint() {
        return service.mountPoint(vault.settings().withMount(mountMethod.get(), "", readOnly.get())).toString();
    }

    /** Saves the settings; they apply from the next unlock. */
    public boolean save() {
        String n = name.get() == null ? "" : name.get().strip();
        if (n.isEmpty()) {
            report(messages.get("create.name.empty"), true);
            return false;
        }
        try {
            service.update(vault, s -> s.withName(n).withMount(mountMethod.get(), mountPoint.get().strip(), readOnly.get())
                    .withAutoLockMinutes(Math.max(0, autoLockMinutes.get())).withUnlockAtStartup(unlockAtStartup.get())
                    .withRevealAfterUnlock(revealAfterUnlock.get()));
            report(messages.get("options.saved"), false);
            return true;
        } catch (IOException e) {
            report(messages.problem(e), true);
            return false;
        }
    }

    public void changePassphrase(char[] oldPassphrase, char[] newPassphrase, char[] confirmation) {
        String problem = Passphrases.problemKey(CharBuffer.wrap(newPassphrase), CharBuffer.wrap(confirmation));
        Passphrases.wipe(confirmation);
        if (!problem.isEmpty()) {
            Passphrases.wipe(oldPassphrase, newPassphrase);
            report(messages.get(problem, Passphrases.MIN_LENGTH), true);
            return;
        }
        char[] forKeyring = java.util.Arrays.copyOf(newPassphrase, newPassphrase.length);
        work(() -> {
            try {
                boolean durable = VaultKeys.changePassphrase(vault, oldPassphrase, newPassphrase);
                updateRemembered(forKeyring); // the new passphrase is the one in force, durable or not
                return messages.get(durable ? "options.passphraseChanged" : "options.passphraseChangedNotDurable");
            } finally {
                Passphrases.wipe(forKeyring);
            }
        });
    }

    public void showRecoveryKey(char[] passphrase) {
        busy.set(true);
        int request = ++recoveryKeyRequests;
        background.run(() -> VaultKeys.recoveryKey(vault, passphrase), words -> {
            busy.set(false);
            if (request == recoveryKeyRequests) { // not forgotten meanwhile (its tab left, the dialog closed)
                recoveryKey.set(CreateVaultViewModel.format(words));
            }
            report("", false);
        }, failure -> {
            busy.set(false);
            report(messages.problem(failure), true);
        });
    }

    public void resetPassphrase(String recoveryWords, char[] newPassphrase, char[] confirmation) {
        String problem = Passphrases.problemKey(CharBuffer.wrap(newPassphrase), CharBuffer.wrap(confirmation));
        Passphrases.wipe(confirmation);
        if (!problem.isEmpty()) {
            Passphrases.wipe(newPassphrase);
            report(messages.get(problem, Passphrases.MIN_LENGTH), true);
            return;
        }
        char[] forKeyring = java.util.Arrays.copyOf(newPassphrase, newPassphrase.length);
        work(() -> {
            try {
                boolean durable = VaultKeys.resetPassphrase(vault, recoveryWords, newPassphrase);
                updateRemembered(forKeyring); // the new passphrase is the one in force, durable or not
                return messages.get(durable ? "options.passphraseReset" : "options.passphraseChangedNotDurable");
            } finally {
                Passphrases.wipe(forKeyring);
            }
        });
    }

    /** True while the keyring holds this vault's passphrase (see {@link #checkRemembered}). */
    public BooleanProperty remembered() { return remembered; }

    /** Looks in the keyring (in the background) whether a passphrase is remembered for this vault. */
    public void checkRemembered() {
        if (keyring.unavailableReason().isPresent()) {
            return;
        }
        background.run(() -> {
            java.util.Optional<char[]> saved = keyring.load(vault.id());
            saved.ifPresent(Passphrases::wipe);
            return saved.isPresent();
        }, remembered::set, failure -> report(messages.problem(failure), true));
    }

    /** "Forget the remembered passphrase": deletes it from the keyring; the next unlock asks for it again. */
    public void forgetRemembered() {
        busy.set(true);
        background.run(() -> {
            keyring.delete(vault.id());
            return null;
        }, ok -> {
            busy.set(false);
            remembered.set(false);
            report(messages.get("options.forgotten"), false);
        }, failure -> {
            busy.set(false);
            report(messages.problem(failure), true);
        });
    }

    /** A passphrase remembered in the keyring follows the change, so "unlock at startup" keeps working. */
    private void updateRemembered(char[] newPassphrase) throws IOException {
        java.util.Optional<char[]> old = keyring.load(vault.id());
        if (old.isPresent()) {
            Passphrases.wipe(old.get());
            keyring.save(vault.id(), java.util.Arrays.copyOf(newPassphrase, newPassphrase.length));
        }
    }

    /** The last health check's report: a summary line, then one line per finding. */
    public StringProperty healthReport() { return healthReport; }

    /** What a repair would do after the last check, one line each (empty: nothing to repair). */
    public ObjectProperty<java.util.List<String>> plannedRepairs() { return plannedRepairs; }

    /** Runs the health check (the vault must be locked) in the background with {@code passphrase} (wiped). */
    public void runHealthCheck(char[] passphrase) {
        busy.set(true);
        healthReport.set("");
        plannedRepairs.set(java.util.List.of());
        background.run(() -> HealthCheck.run(vault, passphrase), summary -> {
            busy.set(false);
            String head = describe(summary);
            healthReport.set(head + details(summary));
            plannedRepairs.set(summary.repairs());
            report(head, !summary.healthy());
        }, failure -> {
            busy.set(false);
            report(messages.problem(failure), true);
        });
    }

    /** The question shown before {@link #repair}: how many repairs, and each one. */
    public String repairQuestion() {
        java.util.List<String> planned = plannedRepairs.get();
        return messages.get("options.health.repair.text", planned.size(), "\u2022 " + String.join("\n\u2022 ", planned));
    }

    /**
     * Makes the repairs of the last check (the person has confirmed {@link #repairQuestion}) in the
     * background with {@code passphrase} (wiped), then shows what was done and the new check.
     */
    public void repair(char[] passphrase) {
        java.util.List<String> confirmed = plannedRepairs.get();
        if (passphrase.length == 0) {
            report(messages.get("options.health.repair.passphrase"), true);
            return;
        }
        if (confirmed.isEmpty()) {
            Passphrases.wipe(passphrase);
            return;
        }
        busy.set(true);
        background.run(() -> HealthCheck.repair(vault, passphrase, confirmed), result -> {
            busy.set(false);
            String done = messages.get("options.health.repaired", result.done(), result.planned());
            StringBuilder text = new StringBuilder(done);
            result.failures().forEach(f -> text.append("\n").append(f));
            result.notes().forEach(n -> text.append("\n").append(messages.get("options.health.note")).append(' ').append(n));
            text.append("\n\n").append(messages.get("options.health.after")).append(' ').append(describe(result.after()))
                    .append(details(result.after()));
            healthReport.set(text.toString());
            plannedRepairs.set(result.after().repairs());
            report(done + " " + describe(result.after()), !result.failures().isEmpty() || !result.after().healthy());
        }, failure -> {
            busy.set(false);
            report(messages.problem(failure), true);
        });
    }

    private String describe(HealthCheck.Summary summary) {
        return summary.healthy() ? messages.get("options.health.healthy", summary.notes())
                : messages.get("options.health.problems", summary.errors(), summary.warnings(), summary.notes());
    }

    /** The findings, then the planned repairs, below the summary line. */
    private String details(HealthCheck.Summary summary) {
        StringBuilder text = new StringBuilder();
        if (!summary.lines().isEmpty()) {
            text.append("\n\n").append(String.join("\n", summary.lines()));
        }
        if (!summary.repairs().isEmpty()) {
            text.append("\n\n").append(messages.get("options.health.repairs", summary.repairs().size()));
            summary.repairs().forEach(r -> text.append("\n\u2022 ").append(r));
        }
        return text.toString();
    }

    /** Forgets the recovery key shown, and one still being read (its tab is left). */
    public void forgetRecoveryKey() {
        recoveryKeyRequests++;
        recoveryKey.set("");
    }

    /** Forgets the recovery key shown or being read (the dialog is closing). */
    public void close() {
        forgetRecoveryKey();
    }

    private void work(java.util.concurrent.Callable<String> job) {
        busy.set(true);
        background.run(job, message -> {
            busy.set(false);
            report(message, false);
        }, failure -> {
            busy.set(false);
            report(messages.problem(failure), true);
        });
    }

    private void report(String message, boolean failure) {
        status.set(message);
        failed.set(failure);
    }
}
