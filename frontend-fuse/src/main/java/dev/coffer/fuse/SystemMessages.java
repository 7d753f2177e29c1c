package dev.coffer.fuse;

import jnr.ffi.LibraryLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the C library's error messages English for the whole process. Java reports most errno
 * values only as the text of strerror(3) ("No space left on device", "Not a directory"), in the
 * language of the user's session; {@link Errno}, stale-mount detection and the other frontends read
 * those texts, so in a German session a full disk would reach programs as EIO, and a stale mount
 * would not be recognised. Only {@code LC_MESSAGES} changes: file names' encoding ({@code LC_CTYPE})
 * and Java's own {@link java.util.Locale}, read when the JVM started, stay as they were.
 *
 * <p>Called when the application starts, again after the GUI toolkit's start (GTK sets the whole
 * locale from the environment), and before every mount. Linux and macOS; elsewhere it does nothing.
 */
public final class SystemMessages {
    private static final String ENGLISH = "C";
    private static Locales c; // loaded at the first call

    /** The C library's {@code setlocale(3)}; public only because jnr-ffi implements it. */
    public interface Locales {
        String setlocale(int category, String locale);
    }

    private SystemMessages() {}

    /** Sets {@code LC_MESSAGES} to "C" unless it is already; false where it could not be (or there is no such category). */
    public static synchronized boolean inEnglish() {
        int category = messagesCategory(System.getProperty("os.name", ""));
        if (category < 0) {
            return false;
        }
        try {
            if (c == null) {
                c = LibraryLoader.create(Locales.class).failImmediately().load("c");
            }
            String current = c.setlocale(category, null);
            if (ENGLISH.equals(current) || "POSIX".equals(current)) {
                return true;
            }
            if (c.setlocale(category, ENGLISH) != null) {
                return true;
            }
            log().warn("the C library refused English error messages; in another language a full disk may reach programs as EIO");
            return false;
        } catch (LinkageError | RuntimeException e) {
            log().warn("could not make the system's error messages English ({}); in another language a full disk may reach "
                    + "programs as EIO", e.getClass().getName());
            return false;
        }
    }

    /** Made only when there is something to say: the command line's quick commands start no logging. */
    private static Logger log() {
        return LoggerFactory.getLogger(SystemMessages.class);
    }

    /** {@code LC_MESSAGES}: 5 in glibc and musl, 6 on macOS and the BSDs; -1 where the C library has none (Windows). */
    static int messagesCategory(String osName) {
        if (osName.startsWith("Linux")) {
            return 5;
        }
        if (osName.startsWith("Mac") || osName.contains("BSD")) {
            return 6;
        }
        return -1;
    }
}
