package dev.coffer.core.vault;

import dev.coffer.core.crypto.MasterKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Unlocks a vault in the order spec 2.2 prescribes: vault.coffer's header (alg, kid) without
 * trusting it, the masterkey file it names (all checks before scrypt), scrypt and unwrap (a failure
 * is "wrong passphrase", unless a conflict copy of the masterkey file opens with it:
 * {@link PassphraseOpensConflictCopyException}), the signature with configKey, the claims, then the
 * conflict copies of the root files.
 *
 * <p>Not responsible for converting passphrases or writing anything ({@link VaultAccess}).
 */
final class VaultOpener {
    /** What an opening produced; the caller owns (and destroys) the key. */
    record Opened(Path vaultDir, RootFiles files, MasterKey key, VaultConfig config, List<String> warnings) {}

    private final Kdf kdf;

    VaultOpener(Kdf kdf) {
        this.kdf = kdf;
    }

    /** Reads and validates the root files; runs no key derivation. */
    static RootFiles readRootFiles(Path vaultDir) throws IOException {
        byte[] vaultBytes = VaultFiles.read(vaultDir, VaultFiles.VAULT_CONFIG);
        VaultConfigJwt jwt = VaultConfigJwt.parse(vaultBytes);
        String masterkeyName = jwt.masterkeyFileName();
        byte[] masterkeyBytes = VaultFiles.read(vaultDir, masterkeyName);
        MasterkeyFile masterkey = MasterkeyFile.parse(masterkeyBytes, masterkeyName);
        return new RootFiles(masterkeyName, masterkeyBytes, masterkey, vaultBytes, jwt);
    }

    Opened open(Path vaultDir, byte[] passphraseUtf8) throws IOException {
        return open(vaultDir, passphraseUtf8, CryptoWarmUps.NONE);
    }

    /**
     * Opens the vault while {@code warmUps} warms up the content crypto on another core (scrypt runs
     * on this one). A warm-up holds back until the opening succeeded, then runs on to its end
     * (bounded); a failed opening (wrong passphrase, refused file) stops it before throwing.
     */
    Opened open(Path vaultDir, byte[] passphraseUtf8, CryptoWarmUps warmUps) throws IOException {
        RootFiles files = readRootFiles(vaultDir);
        CryptoWarmUp warmUp = warmUps.start(files.vaultJwt().unverifiedCipherCombo());
        boolean opened = false;
        try {
            Opened o = unwrapAndVerify(vaultDir, files, passphraseUtf8);
            opened = true;
            warmUp.unlocked();
            return o;
        } finally {
            if (!opened) {
                warmUp.stop();
            }
        }
    }

    private Opened unwrapAndVerify(Path vaultDir, RootFiles files, byte[] passphraseUtf8) throws IOException {
        MasterKey key;
        try {
            key = files.masterkey().unwrap(passphraseUtf8, kdf);
        } catch (InvalidPassphraseException wrong) {
            String copy = new MasterkeyCopyProbe(kdf).copyThatOpens(vaultDir, files, passphraseUtf8);
            if (copy != null) {
                throw new PassphraseOpensConflictCopyException(files.masterkeyName(), copy);
            }
            throw wrong;
        }
        try {
            VaultConfig config = files.vaultJwt().verifiedConfig(key);
            List<String> warnings = new ConflictCopies(kdf).check(vaultDir, files, key, config, passphraseUtf8);
            return new Opened(vaultDir, files, key, config, warnings);
        } catch (IOException | RuntimeException e) {
            key.destroy();
            throw e;
        }
    }
}
