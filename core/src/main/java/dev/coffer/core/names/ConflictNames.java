package dev.coffer.core.names;

import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * The pure naming rules of spec 6, on cleartext NFC names only (no keys, no disk):
 * <ul>
 *   <li>rule 3: {@code <stem of N><decoration><ext of N>}, then {@code " (2)"}, {@code " (3)"}, ...
 *       before the extension while the name is taken;</li>
 *   <li>internal-file conflicts: {@code <N> (Conflict k)}, after the whole name (README
 *       interpretation), smallest free k from 1.</li>
 * </ul>
 * Every result is NFC and at most 255 UTF-8 bytes: whole code points are cut from the end of the
 * stem, then (README interpretation) of the decoration, then of the extension. The counter
 * ({@code " (2)"}, {@code " (Conflict 1)"}) is never cut, so each k gives a different name.
 * Which names are taken is the caller's business.
 */
public final class ConflictNames {
    private ConflictNames() {}

    /** {@code {stem, ext}}: ext starts at the last '.', unless that dot is the first character (then ext is empty). */
    public static String[] splitExtension(String name) {
        int dot = name.lastIndexOf('.');
        if (dot <= 0) {
            return new String[] {name, ""};
        }
        return new String[] {name.substring(0, dot), name.substring(dot)};
    }

    /** The k-th rule-3 candidate for a copy of {@code name} (k = 1: no counter; k >= 2: {@code " (k)"} before the extension). */
    public static String conflictName(String name, String decoration, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1: " + k);
        }
        String[] parts = splitExtension(name);
        return fit(parts[0], Names.nfc(decoration), k == 1 ? "" : " (" + k + ")", parts[1]);
    }

    /** The first rule-3 candidate that {@code taken} does not hold. */
    public static String firstFreeConflictName(String name, String decoration, Predicate<String> taken) {
        for (int k = 1; ; k++) {
            String candidate = conflictName(name, decoration, k);
            if (!taken.test(candidate)) {
                return candidate;
            }
        }
    }

    /** {@code <name> (Conflict k)}, with the name cut from its end to fit 255 bytes. */
    public static String internalConflictName(String name, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1: " + k);
        }
        return fit(name, "", " (Conflict " + k + ")", "");
    }

    /** The first internal-conflict name that {@code taken} does not hold. */
    public static String firstFreeInternalConflictName(String name, Predicate<String> taken) {
        for (int k = 1; ; k++) {
            String candidate = internalConflictName(name, k);
            if (!taken.test(candidate)) {
                return candidate;
            }
        }
    }

    /**
     * NFC of {@code stem + decoration + counter + ext}, cutting whole code points from the end of
     * the stem, then the decoration, then the extension until it fits {@link Names#MAX_BYTES}.
     */
    static String fit(String stem, String decoration, String counter, String ext) {
        int[] s = stem.codePoints().toArray();
        int[] d = decoration.codePoints().toArray();
        int[] e = ext.codePoints().toArray();
        int sn = s.length;
        int dn = d.length;
        int en = e.length;
        while (true) {
            String candidate = Names.nfc(new String(s, 0, sn) + new String(d, 0, dn) + counter + new String(e, 0, en));
            if (candidate.getBytes(StandardCharsets.UTF_8).length <= Names.MAX_BYTES) {
                return candidate;
            }
            if (sn > 0) {
                sn--;
            } else if (dn > 0) {
                dn--;
            } else if (en > 0) {
                en--;
            } else {
                throw new IllegalArgumentException("counter alone exceeds " + Names.MAX_BYTES + " bytes: " + counter);
            }
        }
    }
}
