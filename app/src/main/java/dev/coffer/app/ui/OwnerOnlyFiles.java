package dev.coffer.app.ui;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;

/**
 * Writes a file that only its owner may read (0600 where the store has POSIX permissions): the
 * recovery key decrypts the vault, and a file made with the usual umask (0644) is readable by every
 * local user. Written beside the target and renamed over it, so an existing file's looser
 * permissions never hold the key, not even for a moment; synced before the rename and the folder
 * after it, so "saved" means on the disk (a USB stick pulled, a crash, must not leave an empty file).
 * The content is zeroed once written, or once the write failed.
 */
final class OwnerOnlyFiles {
    private OwnerOnlyFiles() {}

    /** Writes {@code content} to {@code target} (see the class) and zeroes {@code content}. */
    static void write(Path target, byte[] content) throws IOException {
        try {
            Path dir = target.toAbsolutePath().getParent();
            Path temp;
            try {
                temp = Files.createTempFile(dir, ".coffer-", ".tmp",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException noPosix) {
                temp = Files.createTempFile(dir, ".coffer-", ".tmp"); // Windows: the user's profile already is private
            }
            try {
                try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                    ByteBuffer buffer = ByteBuffer.wrap(content);
                    while (buffer.hasRemaining()) {
                        ch.write(buffer);
                    }
                    ch.force(true);
                }
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                syncFolder(dir);
            } finally {
                Files.deleteIfExists(temp);
            }
        } finally {
            Arrays.fill(content, (byte) 0);
        }
    }

    /** Makes the rename durable; a folder that cannot be opened for syncing (Windows) is left as it is. */
    private static void syncFolder(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // the file itself is synced; only its name may be lost in a crash here
        }
    }
}
