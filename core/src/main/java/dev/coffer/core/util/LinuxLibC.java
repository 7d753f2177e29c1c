package dev.coffer.core.util;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import jnr.ffi.LibraryLoader;
import org.slf4j.Logger;

/**
 * What the core's direct calls into Linux's C library share (listing folders, probing for absent
 * names, setting times): binding an interface to libc where that is safe, and a path's bytes exactly
 * as the JDK would pass them to the system.
 */
public final class LinuxLibC {
    /** What the JDK encodes file names with. */
    private static final Charset NAME_CHARSET = nameCharset();
    /** Whether that charset encodes every ASCII character as itself (UTF-8 and ISO-8859-* do). */
    private static final boolean ASCII_AS_IS = asciiAsIs();

    private LinuxLibC() {}

    /**
     * {@code api} bound to libc on Linux (amd64, aarch64), or null elsewhere or if libc lacks one of
     * its functions, which is logged with {@code fallback} (what is done instead).
     */
    public static <T> T load(Class<T> api, Logger log, String fallback) {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.startsWith("linux") || !(arch.equals("amd64") || arch.equals("aarch64"))) {
            return null;
        }
        try {
            return LibraryLoader.create(api).failImmediately().load("c");
        } catch (LinkageError | RuntimeException e) {
            log.info("{} ({})", fallback, e.toString());
            return null;
        }
    }

    /** The path's NUL-terminated bytes as the JDK would pass them to the system, or null if not exact. */
    public static byte[] nativePath(String path) {
        if (!ASCII_AS_IS) {
            return encoded(path);
        }
        int n = path.length();
        byte[] terminated = new byte[n + 1];
        for (int i = 0; i < n; i++) {
            char c = path.charAt(i);
            if (c == 0 || c >= 0x80) {
                return encoded(path); // storage paths are ASCII below the vault's folder; its own path may not be
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

    private static boolean asciiAsIs() {
        StringBuilder all = new StringBuilder();
        for (char c = 1; c < 0x80; c++) {
            all.append(c);
        }
        String ascii = all.toString();
        return Arrays.equals(ascii.getBytes(NAME_CHARSET), ascii.getBytes(StandardCharsets.US_ASCII));
    }

    private static Charset nameCharset() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (RuntimeException e) {
            return StandardCharsets.UTF_8;
        }
    }
}
