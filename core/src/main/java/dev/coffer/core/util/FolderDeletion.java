package dev.coffer.core.util;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import jnr.ffi.LastError;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.SaveError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes empty ciphertext folders in one system call: Linux's {@code rmdir(2)}, where NIO's
 * {@code Files.delete} stats the path first (to choose between unlink and rmdir) and answers a
 * folder that is not empty with an exception (a filled-in stack trace per shared two-letter storage
 * folder). rmdir also refuses a file or link at the path ({@code NotDirectoryException}), which NIO's
 * delete would remove. Where rmdir cannot be asked (not Linux, not the default file system, a path
 * the platform's charset cannot encode exactly) NIO's delete does it as before, at the same cost as
 * before. A failed rmdir is never followed by NIO's delete: a file a sync client put at the path
 * in between would be unlinked by it; the errno is turned into NIO's exception instead.
 */
public final class FolderDeletion {
    private static final Logger LOG = LoggerFactory.getLogger(FolderDeletion.class);
    private static final int ENOENT = 2;
    private static final int EACCES = 13;
    private static final int EEXIST = 17;
    private static final int ENOTDIR = 20;
    private static final int ENOTEMPTY = 39;

    /** What {@link #removeIfEmpty} found. */
    public enum Outcome { REMOVED, NOT_EMPTY, ABSENT }

    /** The libc function used. Public only because jnr-ffi implements it. */
    public interface LibC {
        @SaveError
        int rmdir(@In byte[] path);

        String strerror(int errnum);
    }

    private static final LibC LIBC = LinuxLibC.load(LibC.class, LOG, "Removing folders through the JDK (no rmdir in libc)");
    private static final Runtime RUNTIME = LIBC == null ? null : Runtime.getRuntime(LIBC);

    private FolderDeletion() {}

    /**
     * Removes {@code folder} if it is an empty folder; NOT_EMPTY or ABSENT, without an exception,
     * if it holds something or is not there. With rmdir, a file or link there is refused and kept
     * ({@code NotDirectoryException}); any other failure throws NIO's exception.
     */
    public static Outcome removeIfEmpty(Path folder) throws IOException {
        byte[] path = nativePath(folder);
        if (path != null) {
            if (LIBC.rmdir(path) == 0) {
                return Outcome.REMOVED;
            }
            int errno = LastError.getLastError(RUNTIME);
            if (errno == ENOTEMPTY || errno == EEXIST) {
                return Outcome.NOT_EMPTY;
            }
            if (errno == ENOENT) {
                return Outcome.ABSENT;
            }
            throw failure(folder, errno);
        }
        try {
            Files.delete(folder);
            return Outcome.REMOVED;
        } catch (DirectoryNotEmptyException e) {
            return Outcome.NOT_EMPTY;
        } catch (NoSuchFileException e) {
            return Outcome.ABSENT;
        }
    }

    /**
     * Removes {@code folder}, expected to be an empty folder, with NIO's exceptions for every failure
     * ({@code DirectoryNotEmptyException}, {@code NoSuchFileException}; with rmdir {@code
     * NotDirectoryException} for a file or link, which is kept).
     */
    public static void remove(Path folder) throws IOException {
        byte[] path = nativePath(folder);
        if (path != null) {
            if (LIBC.rmdir(path) == 0) {
                return;
            }
            int errno = LastError.getLastError(RUNTIME);
            if (errno == ENOTEMPTY || errno == EEXIST) {
                throw new DirectoryNotEmptyException(folder.toString());
            }
            throw failure(folder, errno);
        }
        Files.delete(folder); // without rmdir
    }

    /** NIO's exception for rmdir's {@code errno} (as the JDK words it), other than not empty. */
    private static IOException failure(Path folder, int errno) {
        return switch (errno) {
            case ENOENT -> new NoSuchFileException(folder.toString());
            case ENOTDIR -> new NotDirectoryException(folder.toString());
            case EACCES -> new AccessDeniedException(folder.toString());
            default -> new FileSystemException(folder.toString(), null, LIBC.strerror(errno));
        };
    }

    private static byte[] nativePath(Path folder) {
        if (LIBC == null || folder.getFileSystem() != FileSystems.getDefault()) {
            return null;
        }
        return LinuxLibC.nativePath(folder.toString());
    }
}
