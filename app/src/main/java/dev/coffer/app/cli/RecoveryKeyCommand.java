package dev.coffer.app.cli;

import dev.coffer.core.vault.VaultAccess;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer recovery-key VAULT}: prints the 48 recovery words on standard output, 12 per line
 * (exactly what {@code recover --words-file} reads back), with a warning on stderr.
 * Not responsible for deriving the words (core does).
 */
@Command(name = "recovery-key", description = {
    "Prints the vault's recovery key: 48 words that give a new passphrase with 'coffer recover'.",
    "Anyone who has these words can decrypt the vault: write them down and keep them safe."})
final class RecoveryKeyCommand implements Callable<Integer> {
    static final int WORDS_PER_LINE = 12;

    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "VAULT", description = "The vault folder.")
    Path vault;

    @Mixin
    PassphraseOptions passphrase;

    RecoveryKeyCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        Vaults.requireVault(vault);
        char[] p = new PassphraseSource(ctx).existing(passphrase.file, "Passphrase for " + vault + ": ");
        List<String> words;
        try {
            words = VaultAccess.recoveryKey(vault, p);
        } finally {
            PassphraseSource.wipe(p);
        }
        ctx.err().println("Recovery key of " + vault + " - anyone with these words can decrypt the vault:");
        for (int i = 0; i < words.size(); i += WORDS_PER_LINE) {
            ctx.out().println(String.join(" ", words.subList(i, Math.min(i + WORDS_PER_LINE, words.size()))));
        }
        return ExitCodes.OK;
    }
}
