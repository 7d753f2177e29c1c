package dev.coffer.core.health;

import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.names.Decorations;
import dev.coffer.core.names.DirIdFiles;
import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.util.AtomicFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

/**
 * Reads the vault's small metadata files for the health check, never trusting their size:
 * {@code dirid.c9r} (decrypted), candidate long names, and symlink targets; and tells stale
 * temporary files from fresh ones (spec 6: 24 hours).
 */
final class SmallFiles {
    /** Larger than any valid {@code dirid.c9r}, {@code name.c9s} or symlink target (spec 4: 8 KiB of ciphertext). */
    static final int LIMIT = 8 * 1024;
    private static final Duration STALE = Duration.ofHours(24);

    private final VaultKeys keys;

    SmallFiles(VaultKeys keys) {
        this.keys = keys;
    }

    /** The bytes of {@code file}, or null if it is missing, not a regular file, or over {@value #LIMIT} bytes. */
    static byte[] read(Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] b = in.readNBytes(LIMIT + 1);
            return b.length > LIMIT ? null : b;
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** The directory ID a {@code dirid.c9r} holds ("" for the root's empty file), or null if it does not decrypt to one. */
    String dirIdIn(Path file) throws IOException {
        byte[] b = read(file);
        if (b == null) {
            return null;
        }
        if (b.length == 0) {
            return "";
        }
        try {
            String id = new String(keys.content.decryptSmall(b), StandardCharsets.US_ASCII);
            return DirIdFiles.isValid(id) ? id : null;
        } catch (AuthenticationFailedException e) {
            return null;
        }
    }

    /** True if the symlink target file decrypts. */
    boolean symlinkDecrypts(Path file) throws IOException {
        byte[] b = read(file);
        if (b == null) {
            return false;
        }
        try {
            keys.content.decryptSmall(b);
            return true;
        } catch (AuthenticationFailedException e) {
            return false;
        }
    }

    /**
     * A valid long name for the {@code .c9s} folder {@code entry} (named {@code folderName}) found in a
     * file beside the missing or bad {@code name.c9s}: a decorated copy ({@code name (1).c9s}) or the
     * temporary file of an interrupted write. Null if none hashes to the folder's name.
     */
    String recoverLongName(Path entry, String folderName) throws IOException {
        for (String inner : DirectoryLister.sortedNames(entry)) {
            boolean candidate = inner.startsWith(AtomicFiles.TEMP_PREFIX)
                    || inner.endsWith(LongNames.C9S) && Decorations.isDecoratedCopy(inner, "name");
            if (!candidate) {
                continue;
            }
            byte[] b = read(entry.resolve(inner));
            if (b == null || b.length > LongNames.MAX_NAME_FILE) {
                continue;
            }
            String name = new String(b, StandardCharsets.ISO_8859_1);
            if (name.chars().allMatch(c -> c >= 0x21 && c <= 0x7e) && name.endsWith(LongNames.C9R)
                    && LongNames.shortened(name).equals(folderName)) {
                return name;
            }
        }
        return null;
    }

    /**
     * True if anything directly in {@code folder} or one level below (an entry's files) was modified
     * in the last 24 hours; for an empty folder, the folder itself. A folder's own time says nothing
     * about a file a sync client rewrote inside it.
     */
    boolean changedInTheLastDay(Path folder) throws IOException {
        Instant limit = Instant.now().minus(STALE);
        boolean any = false;
        try (Stream<Path> all = Files.walk(folder, 2)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                if (p.equals(folder)) {
                    continue;
                }
                any = true;
                if (!modifiedBefore(p, limit)) {
                    return true;
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return !any && !modifiedBefore(folder, limit);
    }

    private static boolean modifiedBefore(Path p, Instant limit) throws IOException {
        try {
            return Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toInstant().isBefore(limit);
        } catch (NoSuchFileException e) {
            return true; // gone meanwhile: nothing young there
        }
    }

    boolean olderThanADay(Path file) throws IOException {
        try {
            Instant modified = Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS).toInstant();
            return modified.isBefore(Instant.now().minus(STALE));
        } catch (NoSuchFileException e) {
            return false;
        }
    }
}
