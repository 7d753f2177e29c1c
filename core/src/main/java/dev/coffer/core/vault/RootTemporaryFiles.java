package dev.coffer.core.vault;

import dev.coffer.core.util.AtomicFiles;
import dev.coffer.core.util.ExclusiveFileLock;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code .coffer-tmp-*} items that {@link AtomicFiles} left in the vault root (a crash between
 * writing a root file's temporary file and renaming it into place), and which of them may go.
 *
 * <p>{@link AtomicFiles} deletes its temporary file whenever the write fails, so one is left only by
 * a crash (or kill) before the rename or before that delete; until the rename the real file is
 * unchanged, so such a temporary file is never the live file. But a passphrase change's temporary
 * file is a complete masterkey file under the new passphrase, and on a store without folder fsync a
 * crash can undo a rename that was already reported done: then that temporary file is the only file
 * the new passphrase opens. So a temporary file that is a complete masterkey file unlike every
 * masterkey file the root keeps is never removed; anything else (cut short, empty, a copy of a kept
 * file, a store probe's) may be.
 */
public final class RootTemporaryFiles {
    /** What a root temporary item is. */
    public enum Kind {
        /** A folder: AtomicFiles makes none in the root. Not Coffer's: left alone. */
        FOLDER,
        /** A complete masterkey file that no kept masterkey file equals: possibly the only one a passphrase opens. */
        UNKEPT_MASTERKEY,
        /** Anything else: holds nothing the vault needs. */
        DISPOSABLE
    }

    private RootTemporaryFiles() {}

    /** The {@code .coffer-tmp-*} items directly in {@code vaultDir}, sorted by name. */
    public static List<Path> list(Path vaultDir) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(vaultDir, AtomicFiles.TEMP_PREFIX + "*")) {
            ds.forEach(out::add);
        }
        out.sort(null);
        return out;
    }

    public static Kind classify(Path vaultDir, Path temp) throws IOException {
        if (Files.isDirectory(temp, LinkOption.NOFOLLOW_LINKS)) {
            return Kind.FOLDER;
        }
        byte[] bytes = readOrNull(temp);
        if (bytes == null || !isMasterkeyFile(bytes)) {
            return Kind.DISPOSABLE;
        }
        for (Path kept : keptMasterkeyFiles(vaultDir)) {
            if (Arrays.equals(bytes, readOrNull(kept))) {
                return Kind.DISPOSABLE;
            }
        }
        return Kind.UNKEPT_MASTERKEY;
    }

    /**
     * Removes {@code temp} if it is still {@link Kind#DISPOSABLE}, holding the lock a passphrase
     * change holds while it writes (on the masterkey file vault.coffer names), so that a change
     * running now is never robbed of its temporary file.
     *
     * @return false if it is no longer disposable (left as it is); true if removed or gone
     */
    @SuppressWarnings("try") // the lock is held, not used
    public static boolean removeIfDisposable(Path vaultDir, Path temp) throws IOException {
        try (ExclusiveFileLock held = ExclusiveFileLock.on(vaultDir.resolve(masterkeyName(vaultDir)))) {
            if (Files.notExists(temp, LinkOption.NOFOLLOW_LINKS)) {
                return true;
            }
            if (classify(vaultDir, temp) != Kind.DISPOSABLE) {
                return false;
            }
            Files.deleteIfExists(temp);
            return true;
        }
    }

    private static String masterkeyName(Path vaultDir) {
        try {
            return VaultConfigJwt.parse(VaultFiles.read(vaultDir, VaultFiles.VAULT_CONFIG)).masterkeyFileName();
        } catch (IOException e) {
            return VaultFiles.MASTERKEY;
        }
    }

    private static boolean isMasterkeyFile(byte[] bytes) {
        try {
            MasterkeyFile.parse(bytes, "temporary file");
            return true;
        } catch (VaultFormatException e) {
            return false;
        }
    }

    /** Every regular root file named {@code masterkey*}: the live file, its backups, conflict copies. */
    private static List<Path> keptMasterkeyFiles(Path vaultDir) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(vaultDir, "masterkey*")) {
            for (Path p : ds) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** The bytes of a small regular file, or null if it is missing, not regular, or over the root-file limit. */
    private static byte[] readOrNull(Path file) throws IOException {
        try {
            return VaultFiles.read(file.getParent(), file.getFileName().toString());
        } catch (VaultFormatException e) {
            return null;
        }
    }
}
