package dev.coffer.core.util;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import jnr.ffi.LastError;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.SaveError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An exclusive {@code flock(2)} on a file, waited for, held by a descriptor of its own (so, unlike a
 * POSIX lock, reading the file elsewhere in the process does not drop it, and two threads of one
 * process exclude each other too). For a read-check-replace of a small file that two processes may
 * do at once: the second one, let in after the first replaced the file, finds it changed. Where it
 * cannot be taken (not Linux, not the default file system, no such file) it is a no-op: the caller's
 * check still refuses a change it can see.
 */
public final class ExclusiveFileLock implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExclusiveFileLock.class);
    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int LOCK_EX = 2;
    private static final int EINTR = 4;

    /** The libc functions used. Public only because jnr-ffi implements it. */
    public interface LibC {
        @SaveError
        int open(@In byte[] path, int flags);

        @SaveError
        int flock(int fd, int operation);

        int close(int fd);
    }

    private static final LibC LIBC = LinuxLibC.load(LibC.class, LOG, "Replacing files with a check only (no flock in libc)");
    private static final Runtime RUNTIME = LIBC == null ? null : Runtime.getRuntime(LIBC);

    private final int fd;

    private ExclusiveFileLock(int fd) {
        this.fd = fd;
    }

    /** Waits for and takes the lock on {@code file}; a no-op lock where none can be taken. */
    public static ExclusiveFileLock on(Path file) throws IOException {
        byte[] path = LIBC == null || file.getFileSystem() != FileSystems.getDefault() ? null
                : LinuxLibC.nativePath(file.toAbsolutePath().toString());
        if (path == null) {
            return new ExclusiveFileLock(-1);
        }
        int fd = LIBC.open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            return new ExclusiveFileLock(-1); // missing (a first write): nothing to exclude on
        }
        int res;
        do {
            res = LIBC.flock(fd, LOCK_EX);
        } while (res != 0 && LastError.getLastError(RUNTIME) == EINTR);
        if (res != 0) {
            int errno = LastError.getLastError(RUNTIME);
            LIBC.close(fd);
            throw new IOException("cannot lock " + file.getFileName() + " (errno " + errno + ")");
        }
        return new ExclusiveFileLock(fd);
    }

    @Override
    public void close() {
        if (fd >= 0) {
            LIBC.close(fd);
        }
    }
}
