package dev.coffer.core.vault;

import dev.coffer.core.crypto.MasterKey;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

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
        for (String name : candidates(vaultDir, canonical.masterkeyName())) {
            if (opensThisVault(vaultDir, name, canonical, passphraseUtf8)) {
                return name;
            }
        }
        return null;
    }

    /**
     * The root files that may be a copy of the masterkey file {@code masterkeyName} that {@code
     * vault.coffer} names, sorted: any other {@code masterkey*.coffer} (README 7.4), and the sync
     * clients' copies of that name whatever it is ({@code keys (1).coffer} of {@code keys.coffer}).
     */
    static List<String> candidates(Path vaultDir, String masterkeyName) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(vaultDir)) {
            for (Path entry : entries) {
                String n = entry.getFileName().toString();
                boolean copy = n.startsWith("masterkey") && n.endsWith(".coffer") || isDecoratedCopy(n, masterkeyName);
                if (copy && !n.equals(masterkeyName) && !n.equals(VaultFiles.VAULT_CONFIG)
                        && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                    names.add(n);
                }
            }
        }
        Collections.sort(names);
        return names;
    }

    /**
     * True if {@code n} is {@code name} with a decoration before its extension (the last {@code .},
     * unless it is the first character), as sync clients name copies; the decoration does not start
     * with a letter or digit, so {@code keys.coffer} has no copy {@code keysafe.coffer}.
     */
    static boolean isDecoratedCopy(String n, String name) {
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : "";
        if (n.length() <= name.length() || !n.startsWith(stem) || !n.endsWith(ext)) {
            return false;
        }
        String decoration = n.substring(stem.length(), n.length() - ext.length());
        return !Character.isLetterOrDigit(decoration.codePointAt(0));
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
