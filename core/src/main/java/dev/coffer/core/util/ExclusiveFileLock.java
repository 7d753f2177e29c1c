package dev.coffer.core.util;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An exclusive {@link Flock} on a file, waited for. For a read-check-replace of a small file that
 * two processes (or threads) may do at once: the second one, let in after the first replaced the
 * file, finds it changed. Where it cannot be taken (not Linux, not the default file system, no such
 * file) it is a no-op: the caller's check still refuses a change it can see.
 */
public final class ExclusiveFileLock implements AutoCloseable {
    private final int fd;

    private ExclusiveFileLock(int fd) {
        this.fd = fd;
    }

    /** Waits for and takes the lock on {@code file}; a no-op lock where none can be taken. */
    public static ExclusiveFileLock on(Path file) throws IOException {
        if (!Flock.available(file)) {
            return new ExclusiveFileLock(-1);
        }
        int fd = Flock.open(file, false);
        if (fd < 0) {
            return new ExclusiveFileLock(-1); // missing (a first write): nothing to exclude on
        }
        int errno = Flock.lock(fd, Flock.LOCK_EX);
        if (errno != 0) {
            Flock.close(fd);
            throw new IOException("cannot lock " + file.getFileName() + " (errno " + errno + ")");
        }
        return new ExclusiveFileLock(fd);
    }

    @Override
    public void close() {
        if (fd >= 0) {
            Flock.close(fd);
        }
    }
}
