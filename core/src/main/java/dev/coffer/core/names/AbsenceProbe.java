package dev.coffer.core.names;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.Locale;
import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
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

    private static final LibC LIBC = load();
    private static final Runtime RUNTIME = LIBC == null ? null : Runtime.getRuntime(LIBC);
    /** What the JDK encodes file names with. */
    private static final Charset NAME_CHARSET = nameCharset();

    private AbsenceProbe() {}

    private static LibC load() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.startsWith("linux") || !(arch.equals("amd64") || arch.equals("aarch64"))) {
            return null;
        }
        try {
            return LibraryLoader.create(LibC.class).failImmediately().load("c");
        } catch (LinkageError | RuntimeException e) {
            LOG.info("Looking names up through the JDK only (no faccessat in libc: {})", e.toString());
            return null;
        }
    }

    /** Whether this system can answer at all (Linux on amd64 or aarch64). */
    static boolean available() {
        return LIBC != null;
    }

    /** True only if nothing (no file, folder, link or other item) is at {@code path} right now. */
    static boolean absent(Path path) {
        if (LIBC == null || path.getFileSystem() != FileSystems.getDefault()) {
            return false;
        }
        byte[] bytes = nativePath(path.toString());
        return bytes != null
                && LIBC.faccessat(AT_FDCWD, bytes, F_OK, AT_SYMLINK_NOFOLLOW) != 0
                && LastError.getLastError(RUNTIME) == ENOENT;
    }

    /** The path's NUL-terminated bytes as the JDK would pass them to the system, or null if not exact. */
    private static byte[] nativePath(String path) {
        int n = path.length();
        byte[] terminated = new byte[n + 1];
        for (int i = 0; i < n; i++) {
            char c = path.charAt(i);
            if (c == 0 || c >= 0x80) {
                return encoded(path); // storage paths are ASCII below the vault's folder; its own name may not be
            }
            terminated[i] = (byte) c;
        }
        return terminated;
    }

    private static byte[] encoded(String path) {
        if (path.indexOf(0) >= 0) {
            return null;
        }
        byte[] bytes = path.getBytes(NAME_CHARSET);
        if (!new String(bytes, NAME_CHARSET).equals(path)) {
            return null;
        }
        byte[] terminated = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, terminated, 0, bytes.length);
        return terminated;
    }

    private static Charset nameCharset() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (RuntimeException e) {
            return StandardCharsets.UTF_8;
        }
    }
}
