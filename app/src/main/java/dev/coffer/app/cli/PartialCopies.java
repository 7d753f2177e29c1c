package dev.coffer.app.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The temporary names that {@code import} and {@code export} copy a file under until it is whole,
 * and their removal after a failure or a signal: a file cut short must never sit under its real name.
 */
final class PartialCopies {
    /** Hidden, and named for what it is should a killed process leave one. */
    static final String PREFIX = ".coffer-partial-";
    private static final SecureRandom RANDOM = new SecureRandom();

    private PartialCopies() {}

    /** A fresh temporary name in {@code target}'s folder. */
    static Path tempBeside(Path target) {
        byte[] r = new byte[8];
        RANDOM.nextBytes(r);
        return target.resolveSibling(PREFIX + HexFormat.of().formatHex(r));
    }

    /** Deletes a partial copy after {@code failure}; what cannot be deleted is added to it. */
    static void delete(Path temp, Exception failure) {
        try {
            Files.deleteIfExists(temp);
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /** Deletes a partial copy while the JVM ends (null: none); nothing can be reported then. */
    static void deleteQuietly(Path temp) {
        if (temp == null) {
            return;
        }
        try {
            Files.deleteIfExists(temp);
        } catch (IOException | RuntimeException e) {
            // the process is ending: a leftover keeps its telling name
        }
    }
}
