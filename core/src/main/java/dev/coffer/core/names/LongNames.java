package dev.coffer.core.names;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The long-name rule of spec 4: an entry whose {@code <encName>.c9r} is longer than the vault's
 * shortening threshold is stored as {@code <s>.c9s/} with {@code name.c9s} holding the full name.
 */
public final class LongNames {
    public static final String C9R = ".c9r";
    public static final String C9S = ".c9s";
    public static final String NAME_FILE = "name.c9s";
    /** {@code name.c9s} larger than this is invalid (spec 4). */
    public static final int MAX_NAME_FILE = 1024;

    private final int threshold;

    public LongNames(int threshold) {
        this.threshold = threshold;
    }

    public int threshold() {
        return threshold;
    }

    /** True if {@code c9rName} (an {@code <encName>.c9r}) must be stored shortened. */
    public boolean mustShorten(String c9rName) {
        return c9rName.length() > threshold;
    }

    /** {@code Base64url(SHA-1(UTF-8(c9rName))) + ".c9s"}. */
    public static String shortened(String c9rName) {
        byte[] hash = NameCipher.sha1(c9rName.getBytes(StandardCharsets.US_ASCII));
        return Base64.getUrlEncoder().encodeToString(hash) + C9S;
    }

    /** The on-disk name of an entry with this encrypted name (without extension). */
    public String onDiskName(String encName) {
        String c9r = encName + C9R;
        return mustShorten(c9r) ? shortened(c9r) : c9r;
    }
}
