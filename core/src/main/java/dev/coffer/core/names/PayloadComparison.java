package dev.coffer.core.names;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides whether two payloads are identical in the sense of spec 6 rule 2: folders by their
 * {@code dir.c9r} bytes (the ID is stored in the clear), symlinks and files by cleartext, since two
 * encryptions of the same content always differ. Anything that cannot be read is "not identical",
 * so that both are kept.
 */
final class PayloadComparison {
    private static final Logger LOG = LoggerFactory.getLogger(PayloadComparison.class);

    private final ConflictResolver.CleartextComparer comparer;

    PayloadComparison(ConflictResolver.CleartextComparer comparer) {
        this.comparer = comparer;
    }

    /** True if payloads {@code a} and {@code b}, both of {@code type}, hold the same directory ID, target or content. */
    boolean identical(EntryType type, Path a, Path b) {
        return type == EntryType.DIRECTORY ? sameBytes(a, b) : sameCleartext(a, b);
    }

    /** True if both files decrypt to the same cleartext (also for {@code dirid.c9r}). */
    boolean sameCleartext(Path a, Path b) {
        try {
            return comparer.sameCleartext(a, b);
        } catch (IOException e) {
            LOG.warn("Could not compare {} with {}, keeping both: {}", a, b, e.toString());
            return false;
        }
    }

    /** True if both files hold the same bytes (for plaintext internal files: {@code dir.c9r}, {@code name.c9s}). */
    static boolean sameBytes(Path a, Path b) {
        try {
            return Files.mismatch(a, b) == -1L;
        } catch (IOException e) {
            LOG.warn("Could not compare {} with {}, keeping both: {}", a, b, e.toString());
            return false;
        }
    }
}
