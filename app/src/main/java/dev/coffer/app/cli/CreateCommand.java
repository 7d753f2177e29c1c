package dev.coffer.app.cli;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.VaultCreationOptions;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer create VAULT}: a new vault in a missing or empty folder, with the chosen content
 * mode and scrypt cost. Not responsible for the format (core writes the root files).
 */
@Command(name = "create", description = {
    "Creates a new vault in VAULT, which must be missing or an empty folder.",
    "The passphrase (at least " + PassphraseSource.MIN_LENGTH + " characters) comes from --passphrase-file, "
            + PassphraseSource.ENV + ", or two prompts on the terminal."})
final class CreateCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "VAULT", description = "The folder for the new vault.")
    Path vault;

    @Option(names = "--combo", paramLabel = "COMBO", description = "Content mode: ${COMPLETION-CANDIDATES}. "
            + "SIV_XTSHMAC (the default) detects tampering; SIV_XTS keeps file sizes but does not.")
    CipherCombo combo;

    @Option(names = "--scrypt-n", paramLabel = "N", description = "scrypt cost: a power of two from 16384 (2^14) "
            + "to 1048576 (2^20); default 131072 (2^17). Higher is slower to unlock and to attack.")
    Integer scryptN;

    @Mixin
    PassphraseOptions passphrase;

    CreateCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        Vaults.requireMissingOrEmpty(vault, "the vault folder");
        VaultCreationOptions options = options();
        char[] p = new PassphraseSource(ctx).chosen(passphrase.file, "--passphrase-file", PassphraseSource.ENV);
        try (CofferFileSystem fs = CofferFileSystems.create(vault, p, options)) {
            ctx.out().println("Created vault " + vault.toAbsolutePath() + " (" + fs.info().cipherCombo() + ")");
            ctx.out().println("Write down its recovery key now: coffer recovery-key " + vault);
        } finally {
            PassphraseSource.wipe(p);
        }
        return ExitCodes.OK;
    }

    /** The defaults with the options given; a refused value is a usage error. */
    private VaultCreationOptions options() throws CliException {
        VaultCreationOptions defaults = VaultCreationOptions.defaults();
        try {
            return new VaultCreationOptions(combo == null ? defaults.cipherCombo() : combo,
                    scryptN == null ? defaults.scryptCostParam() : scryptN, defaults.shorteningThreshold());
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
    }
}
