package dev.coffer.fuse;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import jnr.constants.platform.Errno;
import jnr.ffi.LibraryLoader;

/**
 * Removes a folder only if it is an empty folder, in one system call (rmdir(2)): {@code
 * Files.delete} looks at what is there and then unlinks a file, so a name that a program made into
 * a file (or a link) since would lose it. Used where Coffer removes the mount point folders it
 * made, looking again after a forced unmount while programs may still write by path.
 */
final class EmptyFolders {
    /** What {@link #remove} found. */
    enum Outcome {
        REMOVED,
        ABSENT,
        NOT_EMPTY,
        NOT_A_FOLDER,
        /** Busy (still mounted on), no permission, or any other failure: left as it is. */
        FAILED
    }

    private EmptyFolders() {}

    static Outcome remove(Path folder) {
        Rmdir libc = Holder.LIBC;
        if (libc == null) {
            return removeChecked(folder);
        }
        if (libc.rmdir(folder.toString()) == 0) {
            return Outcome.REMOVED;
        }
        int errno = jnr.ffi.Runtime.getRuntime(libc).getLastError();
        if (errno == Errno.ENOENT.intValue()) {
            return Outcome.ABSENT;
        }
        if (errno == Errno.ENOTEMPTY.intValue() || errno == Errno.EEXIST.intValue()) {
            return Outcome.NOT_EMPTY;
        }
        if (errno == Errno.ENOTDIR.intValue()) {
            return Outcome.NOT_A_FOLDER; // the name, or a folder above it, is no folder now
        }
        return Outcome.FAILED;
    }

    /** The C library's rmdir. Public only because jnr-ffi implements it; not an API of this module. */
    public interface Rmdir {
        @jnr.ffi.annotations.SaveError
        int rmdir(String path);
    }

    /**
     * Without a C library named "c" (Windows with WinFsp): looked at, then deleted only if a folder;
     * a file made in between could still be lost, but only there.
     */
    private static Outcome removeChecked(Path folder) {
        try {
            if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
                return Outcome.ABSENT;
            }
            if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
                return Outcome.NOT_A_FOLDER;
            }
            Files.delete(folder);
            return Outcome.REMOVED;
        } catch (DirectoryNotEmptyException e) {
            return Outcome.NOT_EMPTY;
        } catch (NoSuchFileException e) {
            return Outcome.ABSENT;
        } catch (IOException e) {
            return Outcome.FAILED;
        }
    }

    /** Loaded on first use; null where there is no C library named "c". */
    private static final class Holder {
        static final Rmdir LIBC = load();

        private static Rmdir load() {
            try {
                return LibraryLoader.create(Rmdir.class).failImmediately().load("c");
            } catch (LinkageError | RuntimeException e) {
                return null;
            }
        }
    }
}
