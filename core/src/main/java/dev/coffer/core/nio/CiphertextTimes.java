package dev.coffer.core.nio;

import dev.coffer.core.util.LinuxLibC;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import jnr.ffi.annotations.In;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets the times of the ciphertext item that carries an entry's times (spec 4), without following a
 * link, as the JDK's view with NOFOLLOW_LINKS does. On Linux one {@code utimensat(AT_SYMLINK_NOFOLLOW)}
 * does it: the JDK's view makes five system calls for it (a stat to rule out a link, then open,
 * futimens, close), and {@code tar xf} and {@code cp -a} set the times of every file. Only success
 * is taken from the native call: where it fails, or cannot be made (not Linux, not the default file
 * system, a path or a time the JDK would pass otherwise), the JDK's view does the work, so every
 * error is the JDK's own.
 */
final class CiphertextTimes {
    private static final Logger LOG = LoggerFactory.getLogger(CiphertextTimes.class);
    private static final int AT_FDCWD = -100;
    private static final int AT_SYMLINK_NOFOLLOW = 0x100;
    private static final long UTIME_OMIT = (1L << 30) - 2; // Linux's, for a time to leave as it is
    /** Beyond this the JDK clamps a time to what fits in nanoseconds in a long; those go to the JDK. */
    private static final long MAX_SECONDS = Long.MAX_VALUE / 1_000_000_000L;

    /** The libc function used. Public only because jnr-ffi implements it. */
    public interface LibC {
        /** {@code times}: access seconds, nanoseconds, then modification seconds, nanoseconds (two timespecs). */
        int utimensat(int dirfd, @In byte[] path, @In long[] times, int flags);
    }

    private static final LibC LIBC = LinuxLibC.load(LibC.class, LOG, "Setting times through the JDK only (no utimensat in libc)");

    private CiphertextTimes() {}

    /**
     * Sets {@code carrier}'s times as {@link BasicFileAttributeView#setTimes} does; null leaves one as it
     * is. A creation time (which Linux cannot set, and other systems' JDK views do) goes to the JDK.
     */
    static void set(Path carrier, FileTime modified, FileTime accessed, FileTime created) throws IOException {
        if (created != null || !setNatively(carrier, modified, accessed)) {
            Files.getFileAttributeView(carrier, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setTimes(modified, accessed, created);
        }
    }

    private static boolean setNatively(Path carrier, FileTime modified, FileTime accessed) {
        if (modified == null && accessed == null) {
            return true; // nothing to set (the JDK's view does nothing either)
        }
        if (LIBC == null || carrier.getFileSystem() != FileSystems.getDefault() || !fits(modified) || !fits(accessed)) {
            return false;
        }
        byte[] path = LinuxLibC.nativePath(carrier.toString());
        if (path == null) {
            return false;
        }
        long[] times = new long[4];
        put(times, 0, accessed);
        put(times, 2, modified);
        return LIBC.utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) == 0;
    }

    private static boolean fits(FileTime t) {
        if (t == null) {
            return true;
        }
        long s = t.toInstant().getEpochSecond();
        return s > -MAX_SECONDS && s < MAX_SECONDS;
    }

    private static void put(long[] times, int at, FileTime t) {
        if (t == null) {
            times[at] = 0;
            times[at + 1] = UTIME_OMIT;
        } else {
            Instant i = t.toInstant();
            times[at] = i.getEpochSecond();
            times[at + 1] = i.getNano();
        }
    }
}
