package dev.coffer.app.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes a file that only its owner may read (0600 where the store has POSIX permissions): the
 * recovery key decrypts the vault, and a file made with the usual umask (0644) is readable by every
 * local user. Written beside the target and renamed over it, so an existing file's looser
 * permissions never hold the key, not even for a moment.
 */
final class OwnerOnlyFiles {
    private OwnerOnlyFiles() {}

    static void write(Path target, byte[] content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Path temp;
        try {
            temp = Files.createTempFile(dir, ".coffer-", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException noPosix) {
            temp = Files.createTempFile(dir, ".coffer-", ".tmp"); // Windows: the user's profile already is private
        }
        try {
            Files.write(temp, content);
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
