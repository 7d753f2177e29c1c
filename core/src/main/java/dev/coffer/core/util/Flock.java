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
 * Linux's {@code flock(2)} on a descriptor of its own: the lock belongs to that open file, so, unlike
 * the JDK's POSIX locks, closing another descriptor of the file in the process does not drop it, and
 * two descriptors in one process exclude each other too. Where libc cannot be bound (not Linux) or
 * the path is not on the default file system, {@link #available} is false and callers fall back.
 */
public final class Flock {
    private static final Logger LOG = LoggerFactory.getLogger(Flock.class);
    private static final int O_RDONLY = 0;
    private static final int O_DIRECTORY = 0x10000;
    private static final int O_CLOEXEC = 0x80000;
    public static final int LOCK_SH = 1;
    public static final int LOCK_EX = 2;
    public static final int LOCK_NB = 4;
    /** What {@link #lock} answers when a {@code LOCK_NB} lock is held elsewhere. */
    public static final int EWOULDBLOCK = 11;
    private static final int EINTR = 4;

    /** The libc functions used. Public only because jnr-ffi implements it. */
    public interface LibC {
        @SaveError
        int open(@In byte[] path, int flags);

        @SaveError
        int flock(int fd, int operation);

        int close(int fd);
    }

    private static final LibC LIBC = LinuxLibC.load(LibC.class, LOG, "Locking with the JDK's file locks only (no flock in libc)");
    private static final Runtime RUNTIME = LIBC == null ? null : Runtime.getRuntime(LIBC);

    private Flock() {}

    /** Whether {@code path} can be locked this way. */
    public static boolean available(Path path) {
        return LIBC != null && path.getFileSystem() == FileSystems.getDefault()
                && LinuxLibC.nativePath(path.toAbsolutePath().toString()) != null;
    }

    /** A read-only descriptor of {@code path} (a folder too, with {@code folder}), or minus the errno. Only where {@link #available}. */
    public static int open(Path path, boolean folder) {
        byte[] bytes = LinuxLibC.nativePath(path.toAbsolutePath().toString());
        int fd = LIBC.open(bytes, O_RDONLY | O_CLOEXEC | (folder ? O_DIRECTORY : 0));
        return fd >= 0 ? fd : -LastError.getLastError(RUNTIME);
    }

    /** {@code flock(fd, operation)}, again after EINTR: 0, or the errno ({@link #EWOULDBLOCK} for a held NB lock). */
    public static int lock(int fd, int operation) {
        while (true) {
            if (LIBC.flock(fd, operation) == 0) {
                return 0;
            }
            int errno = LastError.getLastError(RUNTIME);
            if (errno != EINTR) {
                return errno;
            }
        }
    }

    /** Closes {@code fd}, which ends its lock. */
    public static void close(int fd) {
        LIBC.close(fd);
    }
}
