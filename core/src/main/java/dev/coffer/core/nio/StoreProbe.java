package dev.coffer.core.nio;

import dev.coffer.core.util.AtomicFiles;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * Probes the file system under a vault folder when a vault is opened, with empty temporary files
 * in the {@code .coffer-tmp-} namespace of the vault root (ignored by every reader, removed at
 * once): can a file be created at all (read-only mount, missing permission), does a name differing
 * only in case find it (case-insensitive store), and is a name as long as the vault's longest
 * on-disk name accepted (if not, the longest accepted one is found by bisection).
 *
 * <p>Not responsible for deciding what to do about the limits ({@link CofferFileSystems} opens
 * read-only on a read-only store; the rest is reported through {@link StoreLimits}).
 */
final class StoreProbe {
    private StoreProbe() {}

    /** The limits of the store under {@code vaultDir}; a read-only store is found without writing if it says so. */
    static StoreLimits probe(Path vaultDir, int neededNameLength) throws IOException {
        List<String> warnings = new ArrayList<>();
        FileStore store = Files.getFileStore(vaultDir);
        String notWritable = store.isReadOnly() ? "the file system is mounted read-only" : probeWritable(vaultDir);
        if (notWritable != null) {
            warnings.add("the vault folder cannot be written (" + notWritable + "): opened read-only");
            return new StoreLimits(true, true, false, OptionalInt.empty(), neededNameLength, warnings);
        }
        boolean caseInsensitive = probeCaseInsensitive(vaultDir);
        if (caseInsensitive) {
            warnings.add("the vault folder is on a file system that ignores the case of names; Coffer's encrypted names "
                    + "depend on case, so in rare cases two entries of one folder could collide there");
        }
        OptionalInt limit = probeNameLength(vaultDir, neededNameLength);
        if (limit.isPresent()) {
            warnings.add("the vault folder's file system accepts names of at most " + limit.getAsInt() + " characters, but this "
                    + "vault stores names of up to " + neededNameLength + ": files and folders with long names cannot be created "
                    + "there (create vaults for this file system with a shortening threshold of at most " + limit.getAsInt() + ")");
        }
        return new StoreLimits(true, false, caseInsensitive, limit, neededNameLength, warnings);
    }

    /** The result of a read-only opening: nothing written, only what the store says about itself. */
    static StoreLimits unprobed(Path vaultDir, int neededNameLength) throws IOException {
        return new StoreLimits(false, Files.getFileStore(vaultDir).isReadOnly(), false, OptionalInt.empty(), neededNameLength, List.of());
    }

    /** Null if a file can be created in {@code dir}, otherwise why not. */
    private static String probeWritable(Path dir) {
        Path probe = dir.resolve(AtomicFiles.tempName());
        try {
            Files.createFile(probe);
            Files.delete(probe);
            return null;
        } catch (AccessDeniedException e) {
            return "permission denied";
        } catch (FileSystemException e) {
            return e.getReason() == null ? e.getClass().getSimpleName() : e.getReason();
        } catch (IOException e) {
            return e.getClass().getSimpleName();
        }
    }

    private static boolean probeCaseInsensitive(Path dir) throws IOException {
        String lower = AtomicFiles.tempName() + "-case";
        Path probe = dir.resolve(lower);
        Files.createFile(probe);
        try {
            // Only the part after the prefix changes case, so the other spelling is a temporary name too.
            String other = AtomicFiles.TEMP_PREFIX + lower.substring(AtomicFiles.TEMP_PREFIX.length()).toUpperCase(Locale.ROOT);
            return Files.exists(dir.resolve(other), LinkOption.NOFOLLOW_LINKS);
        } finally {
            Files.deleteIfExists(probe);
        }
    }

    /** Empty if a name of {@code needed} characters works, else the longest length that does. */
    private static OptionalInt probeNameLength(Path dir, int needed) throws IOException {
        String base = AtomicFiles.tempName();
        if (accepts(dir, base, needed)) {
            return OptionalInt.empty();
        }
        int ok = base.length(); // the temporary files of every atomic write are this long; they must work
        if (!accepts(dir, base, ok)) {
            throw new FileSystemException(dir.toString(), null, "the vault folder refuses even " + ok + "-character names");
        }
        int bad = needed;
        while (bad - ok > 1) {
            int mid = (ok + bad) >>> 1;
            if (accepts(dir, base, mid)) {
                ok = mid;
            } else {
                bad = mid;
            }
        }
        return OptionalInt.of(ok);
    }

    private static boolean accepts(Path dir, String base, int length) throws IOException {
        Path probe;
        try {
            probe = dir.resolve(base + "x".repeat(Math.max(0, length - base.length())));
        } catch (java.nio.file.InvalidPathException e) {
            return false;
        }
        try {
            Files.createFile(probe);
        } catch (FileSystemException e) {
            String reason = e.getReason() == null ? "" : e.getReason().toLowerCase(Locale.ROOT);
            if (reason.contains("too long")) {
                return false;
            }
            throw e;
        }
        Files.delete(probe);
        return true;
    }
}
