package dev.coffer.app.cli;

import dev.coffer.core.nio.CofferFileSystem;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer cat VAULT PATH}: streams one decrypted file to standard output, unchanged bytes.
 * A damaged file stops with exit 4 (output so far may already be written). Not responsible for
 * folders ({@code ls}) or trees ({@code export}).
 */
@Command(name = "cat", description = {
    "Writes the decrypted content of the file PATH in the vault to standard output. "
            + "The vault is opened read-only."})
final class CatCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "VAULT", description = "The vault folder.")
    Path vault;

    private static final int COPY_BUFFER = 128 * 1024;

    @Parameters(index = "1", paramLabel = "PATH", description = "The file in the vault.")
    String path;

    @Mixin
    PassphraseOptions passphrase;

    CatCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        try (CofferFileSystem fs = Vaults.open(ctx, vault, passphrase, true);
             InputStream in = Files.newInputStream(Vaults.cleartextPath(fs, path))) {
            // 128 KiB reads, not transferTo's 8-16 KiB: reads of 32 KiB and more are decrypted ahead
            // on a second core (docs/vault-format.md 5.5).
            byte[] buffer = new byte[COPY_BUFFER];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                ctx.out().write(buffer, 0, n);
            }
        }
        ctx.out().flush();
        if (ctx.out().checkError()) {
            throw new CliException(ExitCodes.OTHER, "could not write to standard output");
        }
        return ExitCodes.OK;
    }
}
