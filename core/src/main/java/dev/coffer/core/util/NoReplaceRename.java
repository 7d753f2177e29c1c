package dev.coffer.core.util;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import jnr.ffi.LastError;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.SaveError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rename that never replaces what is at the target, in one system call: Linux's {@code renameat2}
 * with {@code RENAME_NOREPLACE}. The JDK has no such move: a check that the target is free and then
 * {@code rename(2)} would replace a file another thread or program created in between (a sync
 * client, a WebDAV upload beside a move), and the creator would go on writing to a file nobody can
 * reach. Where it cannot be asked (not Linux, not the default file system, a store that does not
 * know the flag, a path the platform's charset cannot encode exactly) the caller checks and moves
 * as before; every other failure is left to that path too, so that it throws the JDK's exceptions.
 */
public final class NoReplaceRename {
    private static final Logger LOG = LoggerFactory.getLogger(NoReplaceRename.class);
    private static final int AT_FDCWD = -100;
    private static final int RENAME_NOREPLACE = 1;
    private static final int EEXIST = 17;

    /** What the rename did. */
    public enum Outcome { RENAMED, TARGET_EXISTS, NOT_DONE }

    /** The libc function used. Public only because jnr-ffi implements it. */
    public interface LibC {
        @SaveError
        int renameat2(int olddirfd, @In byte[] oldpath, int newdirfd, @In byte[] newpath, int flags);
    }

    private static final LibC LIBC = LinuxLibC.load(LibC.class, LOG, "Renaming with a check first (no renameat2 in libc)");
    private static final Runtime RUNTIME = LIBC == null ? null : Runtime.getRuntime(LIBC);

    private NoReplaceRename() {}

    /** Renames {@code from} to {@code to} unless something is there; NOT_DONE where it could not ask (the caller falls back). */
    public static Outcome rename(Path from, Path to) {
        if (LIBC == null || from.getFileSystem() != FileSystems.getDefault() || to.getFileSystem() != FileSystems.getDefault()) {
            return Outcome.NOT_DONE;
        }
        byte[] f = LinuxLibC.nativePath(from.toString());
        byte[] t = LinuxLibC.nativePath(to.toString());
        if (f == null || t == null) {
            return Outcome.NOT_DONE;
        }
        if (LIBC.renameat2(AT_FDCWD, f, AT_FDCWD, t, RENAME_NOREPLACE) == 0) {
            return Outcome.RENAMED;
        }
        return LastError.getLastError(RUNTIME) == EEXIST ? Outcome.TARGET_EXISTS : Outcome.NOT_DONE;
    }
}
