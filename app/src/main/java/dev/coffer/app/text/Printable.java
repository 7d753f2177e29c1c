package dev.coffer.app.cli;

/**
 * Makes a name or message safe to print on a terminal: control characters (which a vault's
 * names may contain, and which could move the cursor or forge output) become {@code \xNN}.
 *
 * <p>Not an escaping that can be undone; for display only.
 */
final class Printable {
    private Printable() {}

    static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0);
            if (control && b == null) {
                b = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            if (b != null) {
                if (control) {
                    b.append(String.format("\\x%02x", (int) c));
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? s : b.toString();
    }
}
