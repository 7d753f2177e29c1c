package dev.coffer.app.cli;

import dev.coffer.core.util.NotDurableException;
import dev.coffer.core.vault.VaultAccess;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer recover VAULT}: sets a new passphrase from the 48 recovery words, for when the
 * passphrase is lost (or masterkey.coffer is damaged). Not responsible for checking the words
 * (core checks them against the vault's signature before writing anything).
 */
@Command(name = "recover", description = {
    "Sets a new passphrase from the vault's 48-word recovery key.",
    "The words come from --words-file, " + RecoveryWords.ENV + " or a prompt (not shown); the new passphrase "
            + "from " + NewPassphraseOptions.OPTION + ", " + PassphraseSource.NEW_ENV + " or two prompts."})
final class RecoverCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "VAULT", description = "The vault folder.")
    Path vault;

    @Option(names = "--words-file", paramLabel = "FILE",
            description = "Read the 48 words from FILE (separated by spaces or line breaks).")
    Path wordsFile;

    @Mixin
    NewPassphraseOptions newPassphrase;

    RecoverCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        Vaults.requireVault(vault);
        String words = RecoveryWords.read(ctx, wordsFile);
        char[] chosen = newPassphrase.read(ctx);
        try {
            try {
                VaultAccess.resetPassphrase(vault, words, chosen);
            } catch (NotDurableException changedAnyway) {
                // The new passphrase is in force: say so (exit 0), and that a crash may bring the old one back.
                ctx.err().println("coffer: warning: " + changedAnyway.getMessage() + " (then the previous passphrase opens it)");
            }
        } finally {
            PassphraseSource.wipe(chosen);
        }
        ctx.out().println("New passphrase set for " + vault);
        return ExitCodes.OK;
    }
}
