package dev.coffer.core.vault;

import dev.coffer.core.crypto.MasterKey;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Sync conflict copies of the root files (spec 2.1, README "Interpretations"): other files in the
 * vault root named {@code masterkey*.coffer} or {@code vault*.coffer}. A byte-identical copy is
 * ignored; a copy that provably belongs to another key or configuration stops the opening; any
 * other copy lets the vault open with the canonical files and yields a warning naming it.
 *
 * <p>Never resolves, moves or deletes a copy: the user decides.
 */
final class ConflictCopies {
    private static final String HINT = "opening stopped - keep the right one and remove the other";

    private final Kdf kdf;

    ConflictCopies(Kdf kdf) {
        this.kdf = kdf;
    }

    /** Warnings naming the copies; throws if a copy contradicts the canonical files. */
    List<String> check(Path vaultDir, RootFiles canonical, MasterKey key, VaultConfig config, byte[] passphraseUtf8)
            throws IOException {
        List<String> warnings = new ArrayList<>();
        for (String name : copyNames(vaultDir, canonical.masterkeyName())) {
            byte[] bytes;
            try {
                bytes = VaultFiles.read(vaultDir, name);
            } catch (VaultFormatException e) {
                warnings.add(name + ": a conflict copy of a root file that cannot be read (" + detail(e) + ")");
                continue;
            }
            if (name.startsWith("masterkey")) {
                if (!Arrays.equals(bytes, canonical.masterkeyBytes())) {
                    warnings.add(checkMasterkeyCopy(name, bytes, canonical.masterkeyName(), key, passphraseUtf8));
                }
            } else if (!Arrays.equals(bytes, canonical.vaultBytes())) {
                warnings.add(checkVaultCopy(name, bytes, canonical, key, config));
            }
        }
        return List.copyOf(warnings);
    }

    private String checkMasterkeyCopy(String name, byte[] bytes, String canonicalName, MasterKey key, byte[] passphrase)
            throws VaultFormatException {
        String prefix = name + ": a conflict copy of " + canonicalName;
        MasterKey other;
        try {
            other = MasterkeyFile.parse(bytes, name).unwrap(passphrase, kdf);
        } catch (VaultFormatException e) {
            return prefix + " that cannot be read (" + detail(e) + "); opened with " + canonicalName;
        } catch (InvalidPassphraseException e) {
            return prefix + " that does not open with this passphrase and cannot be compared; opened with " + canonicalName;
        }
        try {
            if (!other.sameKeyAs(key)) {
                throw new VaultFormatException(canonicalName + " and " + name + " wrap different master keys: " + HINT);
            }
            return prefix + " that wraps the same master key (another salt or scrypt parameters); it can be removed";
        } finally {
            other.destroy();
        }
    }

    private static String checkVaultCopy(String name, byte[] bytes, RootFiles canonical, MasterKey key, VaultConfig config)
            throws VaultFormatException {
        String prefix = name + ": a conflict copy of " + VaultFiles.VAULT_CONFIG;
        VaultConfigJwt copy;
        try {
            copy = VaultConfigJwt.parse(bytes);
        } catch (VaultFormatException e) {
            return prefix + " that cannot be read (" + detail(e) + "); opened with " + VaultFiles.VAULT_CONFIG;
        }
        if (!copy.isSignedBy(key)) {
            return prefix + " that is not signed with this vault's key; opened with " + VaultFiles.VAULT_CONFIG;
        }
        VaultConfig other = null;
        try {
            other = copy.verifiedConfig(key);
        } catch (VaultFormatException e) {
            // Signed with our key but refused claims: it disagrees, handled below.
        }
        if (config.equals(other) && copy.masterkeyFileName().equals(canonical.masterkeyName())) {
            return prefix + " with the same configuration, stored differently; it can be removed";
        }
        throw new VaultFormatException(VaultFiles.VAULT_CONFIG + " and " + name
                + " disagree (another configuration or key): " + HINT);
    }

    /** The problem without its leading file name, which the warning already gives. */
    private static String detail(VaultFormatException e) {
        String message = e.getMessage();
        int end = message.indexOf(".coffer: ");
        return end < 0 ? message : message.substring(end + ".coffer: ".length());
    }

    /** The root files named like a conflict copy of {@code vault.coffer} or {@code masterkeyName}, sorted. */
    static List<String> copyNames(Path vaultDir, String masterkeyName) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(vaultDir)) {
            for (Path entry : entries) {
                String n = entry.getFileName().toString();
                boolean rootFileName = (n.startsWith("masterkey") || n.startsWith("vault")) && n.endsWith(".coffer");
                if (rootFileName && !n.equals(VaultFiles.VAULT_CONFIG) && !n.equals(masterkeyName)
                        && Files.isRegularFile(entry)) {
                    names.add(n);
                }
            }
        }
        Collections.sort(names);
        return names;
    }
}
