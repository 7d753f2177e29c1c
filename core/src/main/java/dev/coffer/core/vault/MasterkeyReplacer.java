package dev.coffer.core.vault;

import dev.coffer.core.util.AtomicFiles;
import dev.coffer.core.util.ExclusiveFileLock;
import dev.coffer.core.util.NotDurableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Replaces a masterkey file the way spec 2.1 asks: first the old bytes are kept as
 * {@code <name>.<8 hex>.bkup} (hex of the first 4 bytes of SHA-256 of those bytes), then the new
 * file is written atomically. Refuses if the file changed since it was read, so a concurrent
 * change (another device via sync) is never overwritten unseen.
 *
 * <p>Not responsible for producing the new content ({@link MasterkeyFile}).
 */
final class MasterkeyReplacer {
    private MasterkeyReplacer() {}

    /**
     * @param oldBytes the file as it was read, or null if there was none
     */
    @SuppressWarnings("try") // the lock is held, not used
    static void replace(Path vaultDir, String name, byte[] oldBytes, byte[] newBytes) throws IOException {
        Path target = vaultDir.resolve(name);
        // Two changes at once (the app and coffer passwd) would both pass the check below and the
        // later one silently win: the lock lets one check-and-write at a time, and the second then
        // finds the file changed.
        try (ExclusiveFileLock one = ExclusiveFileLock.on(target)) {
            replaceLocked(vaultDir, name, target, oldBytes, newBytes);
        }
    }

    private static void replaceLocked(Path vaultDir, String name, Path target, byte[] oldBytes, byte[] newBytes) throws IOException {
        byte[] current = Files.exists(target) ? VaultFiles.read(vaultDir, name) : null;
        if (!Arrays.equals(current, oldBytes)) {
            throw new IOException(name + " changed while the passphrase was being changed; nothing was written - try again");
        }
        if (oldBytes != null) {
            try {
                AtomicFiles.write(vaultDir.resolve(backupName(name, oldBytes)), oldBytes);
            } catch (NotDurableException e) {
                // Only the backup was written: the passphrase itself is unchanged, and must be said so.
                throw new IOException("the passphrase was not changed: the backup of " + name
                        + " could not be saved for good (" + e.getCause().getMessage() + ")", e);
            }
        }
        AtomicFiles.write(target, newBytes); // NotDurableException: changed, but a crash may bring the old one back
    }

    /** {@code <name>.<lower-case hex of SHA-256(oldBytes)[0..4)>.bkup}. */
    static String backupName(String name, byte[] oldBytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(oldBytes);
            return name + "." + HexFormat.of().formatHex(digest, 0, 4) + ".bkup";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required on every Java platform", e);
        }
    }
}
