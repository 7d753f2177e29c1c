package dev.coffer.app.vaults;

import dev.coffer.core.health.Finding;
import dev.coffer.core.health.HealthReport;
import dev.coffer.core.health.Severity;
import dev.coffer.core.health.VaultHealth;
import dev.coffer.core.vault.InvalidPassphraseException;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import dev.coffer.core.vault.VaultFormatException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs core's health check on a locked vault for the vault options and turns the report into what
 * the dialog shows: healthy or not, the counts, and one entry per finding (severity, what, the
 * cleartext path, the detail). Check only: repairs stay with {@code coffer check --repair}. A vault
 * that is unlocked is refused, as the check must not race a drive that writes.
 *
 * <p>Not responsible for the check itself (core's {@link VaultHealth}).
 */
public final class HealthCheck {
    /**
     * What the check found.
     *
     * @param healthy  nothing worse than notes
     * @param errors   findings of severity ERROR
     * @param warnings findings of severity WARNING
     * @param notes    findings of severity INFO
     * @param lines    one line per finding
     */
    public record Summary(boolean healthy, long errors, long warnings, long notes, List<String> lines) {
        public Summary {
            lines = List.copyOf(lines);
        }
    }

    private HealthCheck() {}

    /** Checks the vault with {@code passphrase} (wiped). */
    public static Summary run(ManagedVault vault, char[] passphrase) throws VaultException {
        if (vault.state() != VaultState.LOCKED && vault.state() != VaultState.ERROR) {
            Arrays.fill(passphrase, '\0');
            throw new VaultException(Problem.VAULT_UNLOCKED, vault.settings().name());
        }
        UnlockedVault unlocked;
        try {
            unlocked = VaultAccess.unlock(vault.settings().folderPath(), passphrase);
        } catch (InvalidPassphraseException e) {
            throw new VaultException(Problem.WRONG_PASSPHRASE, "", e);
        } catch (VaultFormatException e) {
            throw new VaultException(Problem.DAMAGED_CONFIGURATION, e.getMessage(), e);
        } catch (IOException e) {
            throw new VaultException(Problem.OTHER, VaultService.describe(e), e);
        } finally {
            Arrays.fill(passphrase, '\0');
        }
        try (unlocked; VaultHealth health = VaultHealth.of(unlocked)) {
            return summarise(health.check());
        } catch (IOException e) {
            throw new VaultException(Problem.OTHER, VaultService.describe(e), e);
        }
    }

    static Summary summarise(HealthReport report) {
        List<String> lines = new ArrayList<>();
        for (Finding f : report.findings()) {
            String where = f.cleartextPath() == null ? "" : " " + f.cleartextPath();
            lines.add(f.severity() + " " + f.kind().title() + ":" + where + " \u2013 " + f.detail());
        }
        return new Summary(report.healthy(), report.count(Severity.ERROR), report.count(Severity.WARNING),
                report.count(Severity.INFO), lines);
    }
}
