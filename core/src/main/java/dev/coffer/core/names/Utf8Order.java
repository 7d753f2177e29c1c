package dev.coffer.core.names;

import java.util.Comparator;

/**
 * Orders strings by their UTF-8 bytes (unsigned), the order spec 4 and 6 process on-disk names in,
 * without encoding them: UTF-8 byte order is code-point order, which differs from
 * {@link String#compareTo} (UTF-16 order) only where a supplementary code point (a surrogate pair)
 * meets one of U+E000..U+FFFF. Not a collation for display.
 */
public final class Utf8Order {
    /** Compares like {@code Arrays.compareUnsigned(a.getBytes(UTF_8), b.getBytes(UTF_8))} for well-formed strings. */
    public static final Comparator<String> COMPARATOR = Utf8Order::compare;

    private Utf8Order() {}

    public static int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                return Integer.compare(rank(x), rank(y));
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    /**
     * A UTF-16 unit's place in code-point order: surrogates (which only occur in pairs standing for
     * code points above U+FFFF) move above U+E000..U+FFFF, which move down to close the gap.
     */
    private static int rank(char c) {
        if (c >= 0xE000) {
            return c - 0x800;
        }
        if (c >= 0xD800) {
            return c + 0x2000;
        }
        return c;
    }
}
