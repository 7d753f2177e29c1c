package dev.coffer.app.ui;

import java.util.Arrays;

/**
 * The rules for a new passphrase (at least {@value #MIN_LENGTH} characters, typed the same twice),
 * and wiping the arrays that carry one.
 *
 * <p>Not responsible for the strength estimate ({@link StrengthMeter}).
 */
public final class Passphrases {
    public static final int MIN_LENGTH = 8;

    private Passphrases() {}

    /** The message key of what is wrong with the new passphrase, or empty if it is acceptable. */
    public static String problemKey(CharSequence passphrase, CharSequence confirmation) {
        // characters as a person counts them (code points), as coffer's CLI does: an emoji is one
        if (Character.codePointCount(passphrase, 0, passphrase.length()) < MIN_LENGTH) {
            return "passphrase.tooShort";
        }
        if (!contentEquals(passphrase, confirmation)) {
            return "passphrase.mismatch";
        }
        return "";
    }

    private static boolean contentEquals(CharSequence a, CharSequence b) {
        if (a.length() != b.length()) {
            return false;
        }
        int diff = 0;
        for (int i = 0; i < a.length(); i++) {
            diff |= a.charAt(i) ^ b.charAt(i);
        }
        return diff == 0;
    }

    public static void wipe(char[]... arrays) {
        for (char[] a : arrays) {
            if (a != null) {
                Arrays.fill(a, '\0');
            }
        }
    }
}
