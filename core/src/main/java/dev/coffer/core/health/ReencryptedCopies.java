package dev.coffer.core.health;

import dev.coffer.core.content.ContentKeys;
import dev.coffer.core.content.OpenFile;
import dev.coffer.core.crypto.Bytes;
import dev.coffer.core.util.AtomicFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Copies an encrypted payload (a file's {@code contents.c9r}, a symlink's {@code symlink.c9r}) by
 * decrypting and encrypting it again, so the copy gets a header of its own: every file has its own
 * random fileSecret (spec 5.1), and a unit pasted from one copy into the other fails authentication.
 * A byte-for-byte copy would share the header, and with it the keys of every unit. Goes through a
 * temporary file in the target folder, fsynced, then renamed into place; a source whose content
 * does not decrypt fails the copy (the damage is reported on its own) and leaves no temporary file.
 *
 * <p>Not responsible for names or folders (the caller places the payload).
 */
final class ReencryptedCopies {
    /** One batch of units (32 units of 4 KiB): what the content layer writes at once. */
    private static final int CHUNK = 128 * 1024;

    private final ContentKeys keys;

    ReencryptedCopies(ContentKeys keys) {
        this.keys = keys;
    }

    /** Copies the payload {@code from} to {@code to}, which must not exist; {@code display} names it in errors. */
    void copy(Path from, Path to, String display) throws IOException {
        Path temp = to.resolveSibling(AtomicFiles.tempName());
        try {
            reencrypt(from, temp, display);
            try {
                Files.move(temp, to, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, to);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private void reencrypt(Path from, Path temp, String display) throws IOException {
        byte[] cleartext = new byte[CHUNK];
        try (OpenFile in = new OpenFile(FileChannel.open(from, StandardOpenOption.READ), keys, display, false);
                OpenFile out = new OpenFile(FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                        StandardOpenOption.WRITE), keys, display, false)) {
            long size = in.size();
            for (long pos = 0; pos < size; ) {
                ByteBuffer chunk = ByteBuffer.wrap(cleartext, 0, (int) Math.min(CHUNK, size - pos));
                while (chunk.hasRemaining()) {
                    if (in.read(chunk, pos + chunk.position()) < 0) {
                        throw new IOException(display + ": the content ended early while it was copied");
                    }
                }
                chunk.flip();
                while (chunk.hasRemaining()) {
                    out.write(chunk, pos + chunk.position());
                }
                pos += chunk.limit();
            }
            out.force(true);
        } finally {
            Bytes.wipe(cleartext); // cleartext of the vault's files
        }
    }
}
