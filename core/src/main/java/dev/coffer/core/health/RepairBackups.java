package dev.coffer.core.health;

import dev.coffer.core.util.AtomicFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Keeps a byte-for-byte copy of a ciphertext file before a repair changes it, in {@value #FOLDER}
 * in the vault folder: {@code repair-backups/<vault-relative ciphertext path>.<8 hex>.bkup}, the hex
 * being the first 4 bytes of SHA-256 of the copied bytes (as a passphrase change names the old
 * masterkey file, spec 2.1). Outside {@code d/}, so listings and later checks never see it; it holds
 * ciphertext only, named by ciphertext names (nothing of the cleartext), and can be put back in place
 * of the repaired file to undo the repair. Written like every metadata file: temporary file, fsync,
 * atomic rename, fsync of the folder; a copy that exists already is not written again.
 *
 * <p>Not responsible for deciding what to back up, nor for ever deleting a backup (the user does).
 */
final class RepairBackups {
    static final String FOLDER = "repair-backups";

    private final VaultKeys keys;

    RepairBackups(VaultKeys keys) {
        this.keys = keys;
    }

    /** Copies {@code file} (in the vault folder) to its backup and returns the backup's vault-relative path. */
    String keep(Path file) throws IOException {
        Path target = keys.vaultDir.resolve(FOLDER).resolve(keys.relative(file));
        Path dir = target.getParent();
        Files.createDirectories(dir);
        Path temp = dir.resolve(AtomicFiles.tempName());
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            try (InputStream in = new DigestInputStream(Files.newInputStream(file), sha256);
                    FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                OutputStream os = Channels.newOutputStream(out);
                in.transferTo(os);
                out.force(true);
            }
            Path backup = dir.resolve(target.getFileName() + "." + HexFormat.of().formatHex(sha256.digest(), 0, 4) + ".bkup");
            if (Files.exists(backup)) {
                Files.delete(temp); // the same bytes were kept by an earlier repair
            } else {
                try {
                    Files.move(temp, backup, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temp, backup);
                }
            }
            // Also when an earlier repair kept it: its fsync may have failed, and the repair that follows cuts the original.
            for (Path d = dir; d != null && d.startsWith(keys.vaultDir); d = d.getParent()) {
                AtomicFiles.syncDirectory(d); // the backup's folder and the folders createDirectories may have made
            }
            return keys.relative(backup);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
