package dev.coffer.app.vaults;

import dev.coffer.core.health.Finding;
import dev.coffer.core.health.HealthReport;
import dev.coffer.core.health.PlannedRepair;
import dev.coffer.core.health.Severity;
import dev.coffer.core.health.VaultHealth;
import dev.coffer.core.health.VaultUseLock;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import java.io.IOException;
import java.util.ArrayList;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs core's health check on a locked vault for the vault options and turns the report into what
 * the dialog shows: healthy or not, the counts, one entry per finding (severity, what, the
 * cleartext path, the detail) and the repairs core plans. {@link #repair} makes those repairs once
 * the person has confirmed them: it checks again, repairs only if the plan is still the one
 * confirmed, holds core's exclusive {@link VaultUseLock} meanwhile (so no {@code coffer mount}
 * elsewhere can open the vault) and marks the vault as under repair in this process (the lock is
 * per process, so {@link VaultService#unlock} asks {@link #inRepair} too), then checks again. A
 * vault that is unlocked is refused, as neither must race a drive that writes.
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
     * @param repairs  what a repair would do, one line each (empty: nothing to repair)
     */
    public record Summary(boolean healthy, long errors, long warnings, long notes, List<String> lines, List<String> repairs) {
        public Summary {
            lines = List.copyOf(lines);
            repairs = List.copyOf(repairs);
        }
    }

    /**
     * What a repair did.
     *
     * @param done     repairs made
     * @param planned  repairs planned (and confirmed)
     * @param failures why the others failed, one line each
     * @param notes    what a repair did that the user should know (a damaged file copied as it is), one line each
     * @param after    the check made after the repairs
     */
    public record RepairResult(int done, int planned, List<String> failures, List<String> notes, Summary after) {
        public RepairResult {
            failures = List.copyOf(failures);
            notes = List.copyOf(notes);
        }
    }

    /** Vault folders this process is repairing: core's lock cannot keep this process's own unlock out. */
    private static final Set<Path> REPAIRING = ConcurrentHashMap.newKeySet();

    private HealthCheck() {}

    /** True while this process repairs the vault in {@code folder}. */
    static boolean inRepair(Path folder) {
        return REPAIRING.contains(folder.toAbsolutePath().normalize());
    }

    /** Checks the vault with {@code passphrase} (wiped). */
    public static Summary run(ManagedVault vault, char[] passphrase) throws VaultException {
        try (UnlockedVault unlocked = open(vault, passphrase); VaultHealth health = VaultHealth.of(unlocked)) {
            return summarise(health.check());
        } catch (VaultException e) {
            throw e;
        } catch (IOException e) {
            throw new VaultException(Problem.OTHER, VaultService.describe(e), e);
        }
    }

    /**
     * Makes the repairs the person confirmed ({@code confirmed}: {@link Summary#repairs()} of the
     * check they saw) with {@code passphrase} (wiped), then checks again. Nothing is repaired if a
     * new check plans anything else ({@link Problem#HEALTH_CHANGED}) or another process has the
     * vault open ({@link Problem#IN_USE_ELSEWHERE}).
     */
    public static RepairResult repair(ManagedVault vault, char[] passphrase, List<String> confirmed) throws VaultException {
        Path folder = vault.settings().folderPath().toAbsolutePath().normalize();
        if (!REPAIRING.add(folder)) {
            Arrays.fill(passphrase, '\0');
            throw new VaultException(Problem.IN_REPAIR, folder.toString());
        }
        try (UnlockedVault unlocked = open(vault, passphrase); VaultHealth health = VaultHealth.of(unlocked)) {
            HealthReport report = health.check();
            if (!descriptions(report.repairs()).equals(confirmed)) {
                throw new VaultException(Problem.HEALTH_CHANGED, "");
            }
            VaultHealth.RepairOutcome outcome;
            try (VaultUseLock lock = VaultUseLock.forRepair(folder)) {
                if (lock == null) {
                    throw new VaultException(Problem.IN_USE_ELSEWHERE, folder.toString());
                }
                outcome = health.repair(report);
            }
            return new RepairResult(outcome.done().size(), report.repairs().size(), outcome.failures(), outcome.notes(),
                    summarise(health.check()));
        } catch (VaultException e) {
            throw e;
        } catch (IOException e) {
            throw new VaultException(Problem.OTHER, VaultService.describe(e), e);
        } finally {
            REPAIRING.remove(folder);
        }
    }

    /** Opens the locked vault for a check (wipes {@code passphrase}); an unlocked one is refused. */
    private static UnlockedVault open(ManagedVault vault, char[] passphrase) throws VaultException {
        try {
            if (vault.state() != VaultState.LOCKED && vault.state() != VaultState.ERROR) {
                throw new VaultException(Problem.VAULT_UNLOCKED, vault.settings().name());
            }
            return VaultAccess.unlock(vault.settings().folderPath(), passphrase);
        } catch (IOException e) {
            throw CoreFailures.translate(e);
        } finally {
            Arrays.fill(passphrase, '\0');
        }
    }

    private static List<String> descriptions(List<PlannedRepair> repairs) {
        return repairs.stream().map(PlannedRepair::description).toList();
    }

    static Summary summarise(HealthReport report) {
        List<String> lines = new ArrayList<>();
        for (Finding f : report.findings()) {
            String where = f.cleartextPath() == null ? "" : " " + f.cleartextPath();
            lines.add(f.severity() + " " + f.kind().title() + ":" + where + " \u2013 " + f.detail());
        }
        return new Summary(report.healthy(), report.count(Severity.ERROR), report.count(Severity.WARNING),
                report.count(Severity.INFO), lines, descriptions(report.repairs()));
    }
}
