package dev.coffer.core.health;

import dev.coffer.core.content.ContentKeys;
import dev.coffer.core.content.DamagedFileException;
import dev.coffer.core.content.OpenFile;
import dev.coffer.core.crypto.Bytes;
import dev.coffer.core.util.AtomicFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;

/**
 * Copies an encrypted payload (a file's {@code contents.c9r}, a symlink's {@code symlink.c9r}) by
 * decrypting and encrypting it again, so the copy gets a header of its own: every file has its own
 * random fileSecret (spec 5.1), and a unit pasted from one copy into the other fails authentication.
 * A byte-for-byte copy would share the header, and with it the keys of every unit. Goes through a
 * temporary file in the target folder, fsynced, then renamed into place. The copy has the source's
 * POSIX permissions (the vault shows the ciphertext file's mode as the file's).
 *
 * <p>A source that does not decrypt (damaged header, a unit failing authentication, an impossible
 * length) is copied byte for byte instead: it is damaged anyway, sharing its header exposes nothing
 * new, and refusing would leave the whole folder shared (a file deleted through one pointer gone from
 * both). The caller learns so from the returned reason. A failed copy leaves no temporary file.
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

    /**
     * Copies the payload {@code from} to {@code to}, which must not exist; {@code display} names it in errors.
     *
     * @return why the payload was copied byte for byte (its damage), or empty if it was encrypted again
     */
    Optional<String> copy(Path from, Path to, String display) throws IOException {
        Path temp = to.resolveSibling(AtomicFiles.tempName());
        try {
            Optional<String> damage;
            try {
                reencrypt(from, temp, display);
                damage = Optional.empty();
            } catch (UndecryptableSource e) {
                Files.deleteIfExists(temp);
                copyAsIs(from, temp);
                damage = Optional.of(e.damage.getReason());
            }
            try {
                Files.move(temp, to, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, to);
            }
            return damage;
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private void reencrypt(Path from, Path temp, String display) throws IOException, UndecryptableSource {
        byte[] cleartext = new byte[CHUNK];
        try (OpenFile in = openSource(from, display);
                OpenFile out = open(createLike(from, temp), display)) {
            long size = in.size();
            for (long pos = 0; pos < size; ) {
                ByteBuffer chunk = ByteBuffer.wrap(cleartext, 0, (int) Math.min(CHUNK, size - pos));
                while (chunk.hasRemaining()) {
                    if (read(in, chunk, pos + chunk.position()) < 0) {
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

    private OpenFile openSource(Path from, String display) throws IOException, UndecryptableSource {
        try {
            return open(FileChannel.open(from, StandardOpenOption.READ), display);
        } catch (DamagedFileException e) {
            throw new UndecryptableSource(e);
        }
    }

    private static int read(OpenFile in, ByteBuffer into, long position) throws IOException, UndecryptableSource {
        try {
            return in.read(into, position);
        } catch (DamagedFileException e) {
            throw new UndecryptableSource(e);
        }
    }

    /** Opens {@code channel} as a content file; closes it if that fails (a damaged header), so no descriptor leaks. */
    private OpenFile open(FileChannel channel, String display) throws IOException {
        try {
            return new OpenFile(channel, keys, display, false);
        } catch (IOException | RuntimeException e) {
            try {
                channel.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** A new, empty {@code temp}, never readable by more than {@code source} is, then given exactly its permissions. */
    private static FileChannel createLike(Path source, Path temp) throws IOException {
        Set<OpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        Set<PosixFilePermission> mode = posixMode(source);
        if (mode == null) {
            return FileChannel.open(temp, options);
        }
        FileChannel channel = FileChannel.open(temp, options, PosixFilePermissions.asFileAttribute(mode));
        try {
            Files.setPosixFilePermissions(temp, mode); // the umask narrowed the mode given at creation
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The damaged payload's ciphertext as it is, with its permissions, fsynced. */
    private static void copyAsIs(Path from, Path temp) throws IOException {
        Files.copy(from, temp);
        Set<PosixFilePermission> mode = posixMode(from);
        if (mode != null) {
            Files.setPosixFilePermissions(temp, mode); // Files.copy's mode went through the umask
        }
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    /** The POSIX permissions of {@code file}, or null where its store has none. */
    private static Set<PosixFilePermission> posixMode(Path file) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        return view == null ? null : view.readAttributes().permissions();
    }

    /** The source's own content failed to decrypt; a failure of the copy being written is never this. */
    private static final class UndecryptableSource extends Exception {
        private static final long serialVersionUID = 1L;
        final transient DamagedFileException damage;

        UndecryptableSource(DamagedFileException damage) {
            super(null, null, false, false); // a signal, not an error: no stack trace
            this.damage = damage;
        }
    }
}
