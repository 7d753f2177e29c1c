package dev.coffer.app.cli;

import dev.coffer.core.health.VaultUseLock;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.VaultAccess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Opening a vault for a command (is it a vault at all, then the passphrase, then core), and the
 * small path rules commands share: a cleartext path typed by the user, and "missing or empty" for
 * folders that a command fills.
 *
 * <p>Not responsible for what the command does with the vault.
 */
final class Vaults {
    private Vaults() {}

    /** Exit 4 before any prompt if {@code vaultDir} holds no vault.coffer. */
    static void requireVault(Path vaultDir) throws CliException {
        if (!VaultAccess.isVault(vaultDir)) {
            throw new CliException(ExitCodes.VAULT_DAMAGED, "not a vault (no vault.coffer): " + vaultDir);
        }
    }

    /** Asks for the passphrase and opens the vault; the caller closes the file system. */
    static CofferFileSystem open(CliContext ctx, Path vaultDir, PassphraseOptions options, boolean readOnly)
            throws IOException, CliException {
        requireVault(vaultDir);
        char[] passphrase = new PassphraseSource(ctx).existing(options.file, "Passphrase for " + vaultDir + ": ");
        try {
            return CofferFileSystems.open(vaultDir, passphrase, readOnly);
        } finally {
            PassphraseSource.wipe(passphrase);
        }
    }

    /**
     * Takes the shared in-use lock of an opened vault, held while it is mounted or served, so that
     * {@code coffer check --repair} refuses meanwhile. If a repair runs, closes {@code fs} and fails.
     */
    static VaultUseLock holdInUse(CofferFileSystem fs, Path vaultDir) throws IOException, CliException {
        VaultUseLock inUse;
        try {
            inUse = VaultUseLock.forUse(vaultDir);
        } catch (dev.coffer.core.health.VaultOpenElsewhereException e) {
            fs.close();
            throw new CliException(ExitCodes.OTHER, e.getMessage());
        } catch (IOException | RuntimeException e) {
            fs.close();
            throw e;
        }
        if (inUse == null) {
            fs.close();
            throw new CliException(ExitCodes.OTHER, "the vault is being repaired (coffer check --repair); open it afterwards");
        }
        return inUse;
    }

    /** A cleartext path in the vault; relative paths start at the vault's root. */
    static Path cleartextPath(CofferFileSystem fs, String path) {
        return fs.getPath("/").resolve(path).normalize();
    }

    /** A usage error unless {@code dir} is missing or an empty folder. */
    static void requireMissingOrEmpty(Path dir, String what) throws IOException, CliException {
        if (!Files.exists(dir)) {
            return;
        }
        if (!Files.isDirectory(dir)) {
            throw CliException.usage(what + " is not a folder: " + dir);
        }
        try (Stream<Path> s = Files.list(dir)) {
            if (s.findAny().isPresent()) {
                throw CliException.usage(what + " is not empty: " + dir + " (give a missing or empty folder)");
            }
        }
    }
}
