package dev.coffer.core.vault;

import dev.coffer.core.crypto.Bytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;

/**
 * The facade for a vault's root files (spec 2): create, unlock, change or reset the passphrase,
 * show the recovery key. Converts each passphrase to UTF-8(NFC) bytes and wipes them when done.
 *
 * <p>Not responsible for the encrypted content under {@code d/} (the file-system layer creates
 * and reads it).
 */
public final class VaultAccess {
    private static final VaultOperations OPERATIONS = new VaultOperations(Kdf.SCRYPT, new SecureRandom(), CryptoWarmUps.PER_JVM);

    private VaultAccess() {}

    /** True if {@code dir} holds a {@code vault.coffer}. */
    public static boolean isVault(Path dir) {
        return Files.isRegularFile(dir.resolve(VaultFiles.VAULT_CONFIG));
    }

    /**
     * Creates a vault: writes masterkey.coffer then vault.coffer (creating {@code vaultDir} if
     * missing). Does not create {@code d/}.
     *
     * @throws java.nio.file.FileAlreadyExistsException if vault.coffer or masterkey.coffer exists
     */
    public static UnlockedVault create(Path vaultDir, char[] passphrase, VaultCreationOptions options) throws IOException {
        byte[] p = Passphrases.toNfcUtf8(passphrase);
        try {
            return OPERATIONS.create(vaultDir, p, options);
        } finally {
            Bytes.wipe(p);
        }
    }

    /**
     * Opens the vault. While scrypt runs, a daemon thread warms up the JIT on the content crypto with
     * a throwaway key ({@link CryptoWarmUps}); it is stopped if the unlock fails.
     *
     * @throws InvalidPassphraseException if the passphrase is wrong
     * @throws VaultFormatException       if the folder is not a vault or its configuration is refused
     */
    public static UnlockedVault unlock(Path vaultDir, char[] passphrase) throws IOException {
        byte[] p = Passphrases.toNfcUtf8(passphrase);
        try {
            return OPERATIONS.unlock(vaultDir, p);
        } finally {
            Bytes.wipe(p);
        }
    }

    /** Re-wraps the same master key under a new passphrase, keeping the old file as a .bkup. */
    public static void changePassphrase(Path vaultDir, char[] oldPassphrase, char[] newPassphrase) throws IOException {
        byte[] oldP = null;
        byte[] newP = null;
        try {
            oldP = Passphrases.toNfcUtf8(oldPassphrase);
            newP = Passphrases.toNfcUtf8(newPassphrase);
            OPERATIONS.changePassphrase(vaultDir, oldP, newP);
        } finally {
            Bytes.wipe(oldP, newP);
        }
    }

    /** The 48 recovery words of the vault (spec 2.4). */
    public static List<String> recoveryKey(Path vaultDir, char[] passphrase) throws IOException {
        byte[] p = Passphrases.toNfcUtf8(passphrase);
        try {
            return OPERATIONS.recoveryKey(vaultDir, p);
        } finally {
            Bytes.wipe(p);
        }
    }

    /**
     * Writes a new masterkey file from the recovery words (spec 2.4).
     *
     * @throws InvalidRecoveryKeyException if the words do not give this vault's master key
     */
    public static void resetPassphrase(Path vaultDir, String recoveryWords, char[] newPassphrase) throws IOException {
        byte[] p = Passphrases.toNfcUtf8(newPassphrase);
        try {
            OPERATIONS.resetPassphrase(vaultDir, recoveryWords, p);
        } finally {
            Bytes.wipe(p);
        }
    }
}
