package dev.coffer.core.vault;

import dev.coffer.core.crypto.MasterKey;
import dev.coffer.core.util.AtomicFiles;
import dev.coffer.core.util.NotDurableException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.UUID;

/**
 * The vault operations behind {@link VaultAccess}, on passphrases already converted to
 * UTF-8(NFC) bytes, with the key derivation and randomness injected (tests replace them).
 *
 * <p>Not responsible for passphrase conversion and wiping (the facade does it), nor for the
 * opening rules ({@link VaultOpener}).
 */
final class VaultOperations {
    private final Kdf kdf;
    private final SecureRandom random;
    private final VaultOpener opener;
    private final CryptoWarmUps warmUps;

    /** Operations whose unlock warms up nothing (tests of the opening rules). */
    VaultOperations(Kdf kdf, SecureRandom random) {
        this(kdf, random, CryptoWarmUps.NONE);
    }

    /** @param warmUps what {@link #unlock} warms up while scrypt runs; only unlock, which serves the vault */
    VaultOperations(Kdf kdf, SecureRandom random, CryptoWarmUps warmUps) {
        this.kdf = kdf;
        this.random = random;
        this.opener = new VaultOpener(kdf);
        this.warmUps = warmUps;
    }

    /** Writes masterkey.coffer, then vault.coffer (so that a half-made vault is never "a vault"). */
    UnlockedVault create(Path vaultDir, byte[] passphrase, VaultCreationOptions options) throws IOException {
        Files.createDirectories(vaultDir);
        for (String name : List.of(VaultFiles.VAULT_CONFIG, VaultFiles.MASTERKEY)) {
            Path existing = vaultDir.resolve(name);
            if (Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
                throw new FileAlreadyExistsException(existing.toString(), null, "a vault already exists here");
            }
        }
        MasterKey key = MasterKey.generate(random);
        List<String> written = new java.util.ArrayList<>(2); // the root files this creation put in place
        try {
            VaultConfig config = new VaultConfig(VaultClaims.FORMAT, options.cipherCombo(),
                    options.shorteningThreshold(), VaultClaims.SECTOR_SIZE, UUID.randomUUID().toString());
            ScryptParams params = new ScryptParams(options.scryptCostParam(), ScryptParams.DEFAULT_R, ScryptParams.DEFAULT_P);
            writeRootFile(vaultDir, VaultFiles.MASTERKEY, MasterkeyFile.wrap(key, passphrase, params, random, kdf).toBytes(),
                    written);
            writeRootFile(vaultDir, VaultFiles.VAULT_CONFIG, VaultConfigJwt.write(config, key), written);
            return new UnlockedVault(vaultDir, key, config, List.of());
        } catch (IOException | RuntimeException e) {
            key.destroy();
            removeRootFiles(vaultDir, written, e); // a new vault holds nothing yet: a retry must find these files absent
            throw e;
        }
    }

    /**
     * Writes a root file that must not exist yet (another process may be creating a vault in the same
     * folder at this very moment: its file must not be replaced by ours, nor ours by its); records it
     * in {@code written} once it is in place, durable or not.
     */
    private static void writeRootFile(Path vaultDir, String name, byte[] content, List<String> written) throws IOException {
        try {
            AtomicFiles.writeNew(vaultDir.resolve(name), content);
        } catch (FileAlreadyExistsException meanwhile) {
            throw new FileAlreadyExistsException(meanwhile.getFile(), null, "a vault was created here meanwhile");
        } catch (NotDurableException inPlace) {
            written.add(name);
            throw inPlace;
        }
        written.add(name);
    }

    /**
     * Removes the root files a failed creation put in place (both were checked to be absent): not one
     * whose writing failed before its rename, which may be somebody else's that arrived meanwhile.
     */
    private static void removeRootFiles(Path vaultDir, List<String> written, Throwable failure) {
        for (String name : written) {
            try {
                Files.deleteIfExists(vaultDir.resolve(name));
            } catch (IOException cleanup) {
                failure.addSuppressed(cleanup);
            }
        }
    }

    UnlockedVault unlock(Path vaultDir, byte[] passphrase) throws IOException {
        VaultOpener.Opened o = opener.open(vaultDir, passphrase, warmUps);
        return new UnlockedVault(vaultDir, o.key(), o.config(), o.warnings());
    }

    /** Verifies the old passphrase by a full opening, then re-wraps the same M (spec 2.1). */
    void changePassphrase(Path vaultDir, byte[] oldPassphrase, byte[] newPassphrase) throws IOException {
        VaultOpener.Opened o = opener.open(vaultDir, oldPassphrase);
        try {
            RootFiles files = o.files();
            ScryptParams params = files.masterkey().params().raisedToDefaults();
            byte[] newFile = MasterkeyFile.wrap(o.key(), newPassphrase, params, random, kdf).toBytes();
            MasterkeyReplacer.replace(vaultDir, files.masterkeyName(), files.masterkeyBytes(), newFile);
        } finally {
            o.key().destroy();
        }
    }

    List<String> recoveryKey(Path vaultDir, byte[] passphrase) throws IOException {
        VaultOpener.Opened o = opener.open(vaultDir, passphrase);
        try {
            return RecoveryKey.words(o.key(), Bip39WordList.english());
        } finally {
            o.key().destroy();
        }
    }

    /** Spec 2.4: words, checksum, the vault.coffer signature, then a new masterkey file. */
    void resetPassphrase(Path vaultDir, String recoveryWords, byte[] newPassphrase) throws IOException {
        MasterKey key = RecoveryKey.parse(recoveryWords, Bip39WordList.english());
        try {
            VaultConfigJwt jwt = VaultConfigJwt.parse(VaultFiles.read(vaultDir, VaultFiles.VAULT_CONFIG));
            if (!jwt.isSignedBy(key)) {
                throw new InvalidRecoveryKeyException(
                        "the recovery key does not belong to this vault (vault.coffer's signature does not verify)");
            }
            jwt.verifiedConfig(key);
            String name = jwt.masterkeyFileName();
            Path file = vaultDir.resolve(name);
            byte[] old;
            try {
                old = Files.exists(file) ? VaultFiles.read(vaultDir, name) : null;
            } catch (VaultFormatException unreadable) {
                if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    throw new VaultFormatException(name + " is not a regular file: move it out of the vault folder, then"
                            + " use the recovery key again");
                }
                // Too large to be a masterkey file (damaged): kept under its backup name, a new one written.
                byte[] newFile = MasterkeyFile.wrap(key, newPassphrase, ScryptParams.defaults(), random, kdf).toBytes();
                MasterkeyReplacer.replaceUnreadable(vaultDir, name, newFile);
                return;
            }
            ScryptParams params = paramsOf(old, name).raisedToDefaults();
            byte[] newFile = MasterkeyFile.wrap(key, newPassphrase, params, random, kdf).toBytes();
            MasterkeyReplacer.replace(vaultDir, name, old, newFile);
        } finally {
            key.destroy();
        }
    }

    /** The old file's scrypt parameters if it still parses (a reset is often for a damaged one). */
    private static ScryptParams paramsOf(byte[] old, String name) {
        if (old != null) {
            try {
                return MasterkeyFile.parse(old, name).params();
            } catch (VaultFormatException e) {
                // damaged or foreign: fall back to the defaults
            }
        }
        return ScryptParams.defaults();
    }
}
