package dev.coffer.app.text;

/**
 * Makes a name or message safe to show on a terminal or in a window: control characters (which a
 * vault's names may contain, and which could move the cursor or forge output), line and paragraph
 * separators and the bidirectional controls (which reorder what follows them, so that "invoice",
 * RIGHT-TO-LEFT OVERRIDE, "fdp.exe" reads as "invoiceexe.pdf") become a backslash, then {@code xNN}
 * or {@code uNNNN}.
 *
 * <p>Not an escaping that can be undone; for display only.
 */
public final class Printable {
    private Printable() {}

    public static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean hidden = isHidden(c);
            if (hidden && b == null) {
                b = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            if (b != null) {
                if (!hidden) {
                    b.append(c);
                } else if (c < 0x100) {
                    b.append(String.format("\\x%02x", (int) c));
                } else {
                    b.append(String.format("\\u%04x", (int) c));
                }
            }
        }
        return b == null ? s : b.toString();
    }

    /** C0 and C1 controls, DEL, the line and paragraph separators and every bidirectional control. */
    private static boolean isHidden(char c) {
        return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)
                || c == 0x061c // ARABIC LETTER MARK
                || c == 0x200e || c == 0x200f // LRM, RLM
                || (c >= 0x2028 && c <= 0x202e) // LINE and PARAGRAPH SEPARATOR, LRE, RLE, PDF, LRO, RLO
                || (c >= 0x2066 && c <= 0x2069); // LRI, RLI, FSI, PDI
    }
}
