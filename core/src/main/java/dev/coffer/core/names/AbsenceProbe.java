package dev.coffer.core.names;

import dev.coffer.core.util.LinuxLibC;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import jnr.ffi.LastError;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.SaveError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells that nothing at all is at a storage path, without the exception the JDK's stat throws for
 * a missing file: a lookup of a name that is not there (every file a program creates is looked up
 * first) spent more of its CPU creating, filling and unwinding the JDK's {@code NoSuchFileException}
 * than in the system call. Asks Linux's {@code faccessat(F_OK, AT_SYMLINK_NOFOLLOW)}, which, like
 * {@code lstat}, counts a link (even a dangling one) as something. Answers true only for ENOENT;
 * anything else (the path exists, another error, not Linux, not the default file system, a path the
 * platform's charset cannot encode exactly) is false, and the caller then stats through the JDK as
 * before, so every answer but "absent" and every error keeps the JDK's behaviour.
 */
final class AbsenceProbe {
    private static final Logger LOG = LoggerFactory.getLogger(AbsenceProbe.class);
    private static final int AT_FDCWD = -100;
    private static final int F_OK = 0;
    private static final int AT_SYMLINK_NOFOLLOW = 0x100;
    private static final int ENOENT = 2;

    /** The libc function used. Public only because jnr-ffi implements it. */
    public interface LibC {
        @SaveError
        int faccessat(int dirfd, @In byte[] path, int mode, int flags);
    }

    private static final LibC LIBC = LinuxLibC.load(LibC.class, LOG, "Looking names up through the JDK only (no faccessat in libc)");
    private static final Runtime RUNTIME = LIBC == null ? null : Runtime.getRuntime(LIBC);

    private AbsenceProbe() {}

    /** Whether this system can answer at all (Linux on amd64 or aarch64). */
    static boolean available() {
        return LIBC != null;
    }

    /** True only if nothing (no file, folder, link or other item) is at {@code path} right now. */
    static boolean absent(Path path) {
        if (LIBC == null || path.getFileSystem() != FileSystems.getDefault()) {
            return false;
        }
        byte[] bytes = LinuxLibC.nativePath(path.toString());
        return bytes != null
                && LIBC.faccessat(AT_FDCWD, bytes, F_OK, AT_SYMLINK_NOFOLLOW) != 0
                && LastError.getLastError(RUNTIME) == ENOENT;
    }
}
