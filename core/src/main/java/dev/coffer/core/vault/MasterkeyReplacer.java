package dev.coffer.core.vault;

import dev.coffer.core.util.AtomicFiles;
import dev.coffer.core.util.ExclusiveFileLock;
import dev.coffer.core.util.NoReplaceRename;
import dev.coffer.core.util.NotDurableException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
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
        if (oldBytes == null) {
            // There was no file to lock on: only a create that replaces nothing keeps a second
            // recovery at the same moment from silently replacing this one's file.
            try {
                AtomicFiles.writeNew(target, newBytes);
            } catch (FileAlreadyExistsException e) {
                throw new IOException(name + " changed while the passphrase was being reset; nothing was written - try again", e);
            }
            return;
        }
        AtomicFiles.write(target, newBytes); // NotDurableException: changed, but a crash may bring the old one back
    }

    /**
     * A recovery (spec 2.4) over a masterkey file too large to be read as one (damaged): the file is
     * renamed, without replacing anything, to its backup name (hashed while streaming it), and the new
     * file is created in its place. Refuses if the file became readable meanwhile (another recovery).
     */
    @SuppressWarnings("try") // the lock is held, not used
    static void replaceUnreadable(Path vaultDir, String name, byte[] newBytes) throws IOException {
        Path target = vaultDir.resolve(name);
        try (ExclusiveFileLock one = ExclusiveFileLock.on(target)) {
            if (!Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS) || Files.size(target) <= VaultFiles.MAX_ROOT_FILE_SIZE) {
                throw new IOException(name + " changed while the passphrase was being reset; nothing was written - try again");
            }
            Path backup = vaultDir.resolve(backupNameFor(name, digestOf(target)));
            switch (NoReplaceRename.rename(target, backup)) {
                case RENAMED -> { }
                case TARGET_EXISTS -> throw backupTaken(name, backup);
                case NOT_DONE -> {
                    if (Files.exists(backup, LinkOption.NOFOLLOW_LINKS)) {
                        throw backupTaken(name, backup);
                    }
                    Files.move(target, backup); // no REPLACE_EXISTING: refused if it appeared meanwhile
                }
            }
            AtomicFiles.writeNew(target, newBytes); // also makes the rename durable (fsync of the folder)
        }
    }

    private static FileAlreadyExistsException backupTaken(String name, Path backup) {
        return new FileAlreadyExistsException(backup.getFileName().toString(), null,
                "the damaged " + name + " cannot be kept under this name; nothing was written");
    }

    private static byte[] digestOf(Path file) throws IOException {
        MessageDigest sha = sha256();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[64 * 1024];
            for (int n; (n = in.read(buf)) > 0; ) {
                sha.update(buf, 0, n);
            }
        }
        return sha.digest();
    }

    /** {@code <name>.<lower-case hex of SHA-256(oldBytes)[0..4)>.bkup}. */
    static String backupName(String name, byte[] oldBytes) {
        return backupNameFor(name, sha256().digest(oldBytes));
    }

    private static String backupNameFor(String name, byte[] digest) {
        return name + "." + HexFormat.of().formatHex(digest, 0, 4) + ".bkup";
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required on every Java platform", e);
        }
    }
}
