package dev.coffer.app.cli;

import dev.coffer.core.util.NotDurableException;
import dev.coffer.core.vault.VaultAccess;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer passwd VAULT}: changes the passphrase (the vault key stays the same, so the
 * recovery key stays valid). Not responsible for re-encrypting anything; core re-wraps the key.
 */
@Command(name = "passwd", description = {
    "Changes the vault's passphrase. The recovery key stays valid.",
    "The current passphrase comes from --passphrase-file, " + PassphraseSource.ENV + " or a prompt; the new one "
            + "from " + NewPassphraseOptions.OPTION + ", " + PassphraseSource.NEW_ENV + " or two prompts."})
final class PasswdCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "VAULT", description = "The vault folder.")
    Path vault;

    @Mixin
    PassphraseOptions passphrase;

    @Mixin
    NewPassphraseOptions newPassphrase;

    PasswdCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        Vaults.requireVault(vault);
        char[] current = null;
        char[] chosen = null;
        try {
            current = new PassphraseSource(ctx).existing(passphrase.file, "Current passphrase for " + vault + ": ");
            chosen = newPassphrase.read(ctx);
            try {
                VaultAccess.changePassphrase(vault, current, chosen);
            } catch (NotDurableException changedAnyway) {
                // The new passphrase is in force: say so (exit 0), and that a crash may bring the old one back.
                ctx.err().println("coffer: warning: " + changedAnyway.getMessage() + " (then the previous passphrase opens it)");
            }
        } finally {
            PassphraseSource.wipe(current);
            PassphraseSource.wipe(chosen);
        }
        ctx.out().println("Passphrase changed for " + vault);
        return ExitCodes.OK;
    }
}
