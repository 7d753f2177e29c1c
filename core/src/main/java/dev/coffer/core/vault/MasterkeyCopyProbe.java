package dev.coffer.core.vault;

import dev.coffer.core.crypto.MasterKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * After a passphrase failed on the masterkey file in use: finds the sync-conflict copy of it
 * (spec 2.1: {@code masterkey (1).coffer} and the like) that this passphrase opens and whose key
 * signs {@code vault.coffer}. That is a passphrase changed on another device, with the sync keeping
 * both files: worth saying so instead of "wrong passphrase". Reads only; resolves nothing.
 */
final class MasterkeyCopyProbe {
    private final Kdf kdf;

    MasterkeyCopyProbe(Kdf kdf) {
        this.kdf = kdf;
    }

    /** The copy's file name, or null if no copy of this vault's masterkey file opens with {@code passphraseUtf8}. */
    String copyThatOpens(Path vaultDir, RootFiles canonical, byte[] passphraseUtf8) throws IOException {
        for (String name : ConflictCopies.copyNames(vaultDir, canonical.masterkeyName())) {
            if (name.startsWith("masterkey") && opensThisVault(vaultDir, name, canonical, passphraseUtf8)) {
                return name;
            }
        }
        return null;
    }

    private boolean opensThisVault(Path vaultDir, String name, RootFiles canonical, byte[] passphraseUtf8) throws IOException {
        MasterKey key;
        try {
            byte[] bytes = VaultFiles.read(vaultDir, name);
            if (Arrays.equals(bytes, canonical.masterkeyBytes())) {
                return false; // the same file: it has just failed
            }
            key = MasterkeyFile.parse(bytes, name).unwrap(passphraseUtf8, kdf);
        } catch (VaultFormatException | InvalidPassphraseException e) {
            return false;
        }
        try {
            return canonical.vaultJwt().isSignedBy(key);
        } finally {
            key.destroy();
        }
    }
}
