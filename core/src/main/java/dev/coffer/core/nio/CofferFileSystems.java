package dev.coffer.core.nio;

import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.crypto.Bytes;
import dev.coffer.core.crypto.MasterKey;
import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.names.NameCipher;
import dev.coffer.core.util.AtomicFiles;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import dev.coffer.core.vault.VaultConfig;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The core's front door: creates vaults and opens them as {@link CofferFileSystem}s. Passphrase
 * arrays passed in are wiped before these methods return.
 */
public final class CofferFileSystems {
    private CofferFileSystems() {}

    /** Creates a new vault in {@code vaultDir} (its root files and empty root folder) and opens it. */
    public static CofferFileSystem create(Path vaultDir, char[] passphrase, VaultCreationOptions options) throws IOException {
        try {
            UnlockedVault unlocked = VaultAccess.create(vaultDir, passphrase, options);
            return open(unlocked, false);
        } finally {
            Arrays.fill(passphrase, '\0');
        }
    }

    /** Unlocks and opens the vault in {@code vaultDir}; {@code InvalidPassphraseException} for a wrong passphrase. */
    public static CofferFileSystem open(Path vaultDir, char[] passphrase, boolean readOnly) throws IOException {
        try {
            return open(VaultAccess.unlock(vaultDir, passphrase), readOnly);
        } finally {
            Arrays.fill(passphrase, '\0');
        }
    }

    /**
     * Opens an already unlocked vault; the file system takes over (and later destroys) its master key.
     * A writable opening first probes the vault folder's file system ({@link CofferFileSystem#storeLimits()}):
     * if nothing can be written there, the vault is opened read-only and the limits say why.
     */
    public static CofferFileSystem open(UnlockedVault unlocked, boolean readOnly) throws IOException {
        try {
            VaultConfig config = unlocked.config();
            byte[] keyBytes = unlocked.masterKey().copyBytes();
            MasterKey key;
            try {
                key = MasterKey.of(keyBytes);
            } finally {
                Bytes.wipe(keyBytes);
            }
            VaultInfo info = new VaultInfo(config.jti(), config.cipherCombo().name(),
                    config.cipherCombo() == CipherCombo.SIV_XTSHMAC, config.shorteningThreshold(), unlocked.warnings());
            StoreLimits limits;
            try {
                limits = readOnly ? StoreProbe.unprobed(unlocked.vaultDir(), config.shorteningThreshold())
                        : StoreProbe.probe(unlocked.vaultDir(), config.shorteningThreshold());
            } catch (IOException | RuntimeException e) {
                key.destroy();
                throw e;
            }
            // A store that cannot be written is opened read-only, with a warning, instead of failing on the first write.
            boolean openReadOnly = readOnly || limits.readOnly();
            try {
                if (!openReadOnly) {
                    ensureRootStorage(unlocked.vaultDir(), key);
                }
                return CofferFileSystemProvider.instance().open(unlocked.vaultDir(), key, info, limits, openReadOnly);
            } catch (IOException | RuntimeException e) {
                key.destroy();
                throw e;
            }
        } finally {
            unlocked.close();
        }
    }

    /**
     * Creates {@code d/<root storage>/dirid.c9r} (0 bytes for the root) if missing: a new vault, or
     * one whose creation was interrupted after its root files were written.
     */
    private static void ensureRootStorage(Path vaultDir, MasterKey key) throws IOException {
        byte[] sivKey = key.derive("coffer/siv", AesSiv.KEY_LENGTH);
        AesSiv siv = new AesSiv(sivKey);
        Bytes.wipe(sivKey);
        try {
            Path storage = vaultDir.resolve("d").resolve(new NameCipher(siv).storageFolder(""));
            Path dirId = storage.resolve(DirectoryLister.DIRID_FILE);
            if (!Files.exists(dirId)) {
                Files.createDirectories(storage);
                AtomicFiles.write(dirId, new byte[0]);
                AtomicFiles.syncDirectory(storage.getParent());
            }
        } finally {
            siv.destroy();
        }
    }
}
