package dev.coffer.app.cli;

import dev.coffer.core.nio.CofferFileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer export VAULT DEST_DIR [--from PATH]}: decrypts a vault folder into a missing or
 * empty plain folder; exits 4 if anything could not be read (everything else is still exported).
 * Not responsible for the copying itself ({@link TreeExporter}).
 */
@Command(name = "export", description = {
    "Copies the files, folders and symlinks in the vault folder PATH into DEST_DIR, which must be missing "
            + "or empty. The vault is opened read-only.",
    "A file that cannot be read (damaged) is named on stderr and skipped; the export goes on and exits 4."})
final class ExportCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "VAULT", description = "The vault folder.")
    Path vault;

    @Parameters(index = "1", paramLabel = "DEST_DIR", description = "The plain folder to write (missing or empty).")
    Path destination;

    @Option(names = "--from", paramLabel = "PATH", defaultValue = "/",
            description = "Folder in the vault to export (default: ${DEFAULT-VALUE}).")
    String from;

    @Mixin
    PassphraseOptions passphrase;

    ExportCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    /** Cleartext exported into the vault folder would be synced with it (compared by real paths: links do not hide it). */
    private void requireOutsideVault() throws CliException {
        if (dev.coffer.fuse.MountPaths.isInside(destination, vault)) {
            throw CliException.usage("the destination must not be inside the vault folder: " + destination
                    + " (the cleartext would be synced with the vault)");
        }
    }

    @Override
    public Integer call() throws Exception {
        Vaults.requireMissingOrEmpty(destination, "the destination");
        requireOutsideVault();
        TreeExporter exporter = new TreeExporter(ctx.err());
        try (CofferFileSystem fs = Vaults.open(ctx, vault, passphrase, true)) {
            Path source = Vaults.cleartextPath(fs, from);
            if (!Files.isDirectory(source)) {
                throw Files.exists(source) ? new NotDirectoryException(source.toString())
                        : new NoSuchFileException(source.toString());
            }
            Files.createDirectories(destination);
            // A signal (Ctrl-C, SIGTERM) ends the JVM in the middle of a file: its partial copy goes.
            Thread cleanUp = new Thread(exporter::deletePartial, "coffer-export-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanUp);
            try {
                exporter.export(source, destination);
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanUp);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs
                }
            }
        }
        ctx.out().printf("Exported %d files, %d folders, %d symlinks to %s%n",
                exporter.files, exporter.folders, exporter.links, destination);
        if (!exporter.unreadable.isEmpty()) {
            throw new CliException(ExitCodes.VAULT_DAMAGED, exporter.unreadable.size()
                    + " damaged item(s) could not be read and were skipped (named above); everything else was exported");
        }
        return ExitCodes.OK;
    }
}
