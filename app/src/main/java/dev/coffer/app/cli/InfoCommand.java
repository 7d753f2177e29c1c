package dev.coffer.app.cli;

import dev.coffer.app.text.Printable;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.VaultInfo;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer info VAULT}: the vault's folder, ID, content mode, name shortening threshold and
 * any warnings from opening it. Needs the passphrase: the configuration is only trusted once its
 * signature verifies with the vault's key. Not responsible for checking the vault's content.
 */
@Command(name = "info", description = {
    "Shows the vault's folder, ID (jti), content mode, name shortening threshold and warnings.",
    "Needs the passphrase: the configuration is signed with the vault's key and is not shown before "
            + "that signature is verified."})
final class InfoCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "VAULT", description = "The vault folder.")
    Path vault;

    @Mixin
    PassphraseOptions passphrase;

    InfoCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        try (CofferFileSystem fs = Vaults.open(ctx, vault, passphrase, true)) {
            VaultInfo info = fs.info();
            PrintStream out = ctx.out();
            out.println("vault folder:  " + vault.toAbsolutePath().normalize());
            out.println("jti:           " + info.jti());
            out.println("content mode:  " + info.cipherCombo()
                    + (info.authenticated() ? " (authenticated)" : " (length-preserving, not authenticated)"));
            out.println("threshold:     " + info.shorteningThreshold());
            for (String warning : info.warnings()) {
                out.println("warning:       " + Printable.escape(warning));
            }
        }
        return ExitCodes.OK;
    }
}
