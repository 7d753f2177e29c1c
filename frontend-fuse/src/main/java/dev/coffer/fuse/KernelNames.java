package dev.coffer.fuse;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;

/**
 * How names cross from the kernel into Java. jnr-ffi decodes a callback's path with the JVM's default
 * charset and puts U+FFFD where bytes do not decode, so two different names could become one: under
 * a non-UTF-8 default (JDK 17 without a UTF-8 locale) every non-ASCII name, and under UTF-8 names
 * that are not UTF-8 (Latin-1 names from old archives: {@code caf\xe9} and {@code caf\xe8}). A second
 * file created under such a name would open, truncate and overwrite the first. So a mount needs a
 * UTF-8 default, and a path that did not decode is refused (EILSEQ) instead of served as another.
 */
final class KernelNames {
    /** The reason {@link Errno} maps to EILSEQ. */
    static final String UNDECODABLE = "Illegal byte sequence";

    private KernelNames() {}

    /** Refuses to mount where the kernel's names would not be decoded as UTF-8. */
    static void requireUtf8(Charset defaultCharset) throws IOException {
        if (!StandardCharsets.UTF_8.equals(defaultCharset)) {
            throw new IOException("Coffer reads file names as UTF-8, but Java's default charset here is "
                    + defaultCharset.name() + ": names with letters beyond ASCII would be garbled or merged. "
                    + "Run it with a UTF-8 locale (LANG=C.UTF-8) or the Java option -Dfile.encoding=UTF-8 "
                    + "(the coffer launcher sets both).");
        }
    }

    /** Refuses a kernel path (or symlink target) with bytes that did not decode as UTF-8. */
    static void requireDecoded(String kernelString) throws FileSystemException {
        if (kernelString.indexOf('\uFFFD') >= 0) {
            // No name in the message: exceptions must not carry cleartext names into logs.
            throw new FileSystemException(null, null, UNDECODABLE);
        }
    }
}
