package dev.coffer.app.cli;

import dev.coffer.app.text.Printable;
import dev.coffer.core.health.Finding;
import dev.coffer.core.health.HealthReport;
import dev.coffer.core.health.PlannedRepair;
import dev.coffer.core.health.Severity;
import dev.coffer.core.health.VaultHealth;
import dev.coffer.core.health.VaultUseLock;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer check VAULT [--repair] [--yes]}: runs core's health check and prints its report;
 * with {@code --repair}, prints the repairs it will make, asks (or takes {@code --yes}), makes
 * them, and checks again. Exit 0 if healthy (nothing worse than notes), 5 if problems remain.
 * Not responsible for the check itself ({@link VaultHealth}).
 */
@Command(name = "check", description = {
    "Checks the whole vault: orphan and missing folders, damaged pointers and names, sync conflicts, impossible "
            + "sizes, and (in SIV_XTSHMAC) the authentication of every file's content. Exit 0 if healthy, 5 if "
            + "problems were found.",
    "With --repair, says what it will repair, asks, repairs, and checks again. Damaged content is listed, never "
            + "changed or deleted, except an interrupted write (a file whose end a crash cut short): it is cut back to its "
            + "readable part after a copy of it is kept in the vault folder's repair-backups. Do not check a vault that is "
            + "mounted; --repair refuses while Coffer has it mounted."})
final class CheckCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "VAULT", description = "The vault folder.")
    Path vault;

    @Option(names = "--repair", description = "Repair what can be repaired (after saying what and asking).")
    boolean repair;

    @Option(names = "--yes", description = "With --repair: do not ask (for scripts; there is no prompt without a terminal).")
    boolean yes;

    @Mixin
    PassphraseOptions passphrase;

    CheckCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        Vaults.requireVault(vault);
        if (yes && !repair) {
            throw CliException.usage("--yes only goes with --repair");
        }
        char[] secret = new PassphraseSource(ctx).existing(passphrase.file, "Passphrase for " + vault + ": ");
        UnlockedVault unlocked;
        try {
            unlocked = VaultAccess.unlock(vault, secret);
        } finally {
            PassphraseSource.wipe(secret);
        }
        try (unlocked; VaultHealth health = VaultHealth.of(unlocked)) {
            HealthReport report = health.check();
            print(report);
            if (!repair || report.repairs().isEmpty()) {
                if (repair) {
                    ctx.out().println("Nothing to repair.");
                }
                return exitCode(report);
            }
            ctx.out().println("Repairs (" + report.repairs().size() + "):");
            for (PlannedRepair r : report.repairs()) {
                ctx.out().println("  - " + Printable.escape(r.description()));
            }
            if (!confirmed(report.repairs().size())) {
                ctx.out().println("Nothing was repaired.");
                return exitCode(report);
            }
            VaultHealth.RepairOutcome outcome;
            try (VaultUseLock lock = VaultUseLock.forRepair(vault)) {
                if (lock == null) {
                    throw new CliException(ExitCodes.OTHER, "the vault is in use (mounted by Coffer, or being repaired): unmount it"
                            + " first; nothing was repaired");
                }
                outcome = health.repair(report);
            }
            ctx.out().println("Repaired " + outcome.done().size() + " of " + report.repairs().size() + ".");
            for (String failure : outcome.failures()) {
                ctx.err().println("coffer: repair failed: " + Printable.escape(failure));
            }
            for (String note : outcome.notes()) {
                ctx.out().println("Note: " + Printable.escape(note));
            }
            ctx.out().println();
            ctx.out().println("Checking again:");
            HealthReport after = health.check();
            print(after);
            return exitCode(after);
        }
    }

    private boolean confirmed(int count) throws CliException {
        if (yes) {
            return true;
        }
        if (!ctx.terminal().isAvailable()) {
            throw CliException.usage("no terminal to confirm the repairs on: add --yes to repair without asking");
        }
        char[] answer = ctx.terminal().readSecret("Make these " + count + " repairs? Type yes: ");
        if (answer == null) {
            return false;
        }
        try {
            String a = new String(answer).trim().toLowerCase(Locale.ROOT);
            return a.equals("yes") || a.equals("y");
        } finally {
            PassphraseSource.wipe(answer);
        }
    }

    private static int exitCode(HealthReport report) {
        return report.healthy() ? ExitCodes.OK : ExitCodes.PROBLEMS_FOUND;
    }

    private void print(HealthReport report) {
        PrintStream out = ctx.out();
        for (Finding f : report.findings()) {
            String where = f.cleartextPath() == null ? "(no cleartext path)" : f.cleartextPath();
            out.printf("%-7s %s: %s%s%n", f.severity(), f.kind().title(), Printable.escape(where), f.repairable() ? "  [repairable]" : "");
            out.println("        " + Printable.escape(f.detail()));
            out.println("        at " + Printable.escape(f.ciphertextPath()));
        }
        long repairable = report.findings().stream().filter(Finding::repairable).count();
        out.printf("%s: %d error(s), %d warning(s), %d note(s); %d repairable%n",
                report.healthy() ? "Healthy" : "Problems found", report.count(Severity.ERROR), report.count(Severity.WARNING),
                report.count(Severity.INFO), repairable);
    }
}
