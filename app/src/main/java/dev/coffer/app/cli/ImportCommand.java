package dev.coffer.app.cli;

import dev.coffer.app.text.Printable;
import dev.coffer.core.nio.CofferFileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer import VAULT SRC_DIR [--to PATH]}: encrypts a plain folder tree into the vault.
 * Not responsible for the copying itself ({@link TreeImporter}).
 */
@Command(name = "import", description = {
    "Copies the files, folders and symlinks in SRC_DIR into the vault folder PATH (created if missing).",
    "Existing folders are merged; an existing file is never replaced (exit 1)."})
final class ImportCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "VAULT", description = "The vault folder.")
    Path vault;

    @Parameters(index = "1", paramLabel = "SRC_DIR", description = "The plain folder whose content is imported.")
    Path source;

    @Option(names = "--to", paramLabel = "PATH", defaultValue = "/",
            description = "Folder in the vault to import into (default: ${DEFAULT-VALUE}).")
    String to;

    @Mixin
    PassphraseOptions passphrase;

    ImportCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    /**
     * A source holding the vault folder (importing ~ with the vault in ~/Dropbox/vault) would copy
     * the vault's ciphertext into itself while it grows, and one inside it is ciphertext only.
     * Compared by real paths: links do not hide either.
     */
    private void requireApartFromVault() throws CliException {
        if (dev.coffer.fuse.MountPaths.isInside(vault, source)) {
            throw CliException.usage("the source must not hold the vault folder: " + source
                    + " (the vault's own files would be imported into it, over and over)");
        }
        if (dev.coffer.fuse.MountPaths.isInside(source, vault)) {
            throw CliException.usage("the source must not be inside the vault folder: " + source
                    + " (that is the vault's encrypted content)");
        }
    }

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(source)) {
            throw CliException.usage("not a folder: " + source);
        }
        Vaults.requireVault(vault);
        requireApartFromVault();
        TreeImporter importer = new TreeImporter(ctx.err());
        try (CofferFileSystem fs = Vaults.open(ctx, vault, passphrase, false)) {
            Path target = Vaults.cleartextPath(fs, to);
            Files.createDirectories(target);
            importer.copy(source.toRealPath(), target);
            ctx.out().printf("Imported %d files, %d folders, %d symlinks into %s%n",
                    importer.files, importer.folders, importer.links, Printable.escape(target.toString()));
        }
        if (importer.skipped > 0) {
            throw new CliException(ExitCodes.OTHER, importer.skipped + " special files were not imported");
        }
        return ExitCodes.OK;
    }
}
