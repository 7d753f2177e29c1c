package dev.coffer.core.health;

/** Shows a decrypted name that may hold control characters (NUL, line breaks) on one printable line. */
final class Quoting {
    private Quoting() {}

    /** {@code name} with backslash, quote and control characters escaped as {@code \\}, {@code \"}, {@code \\u} and four hex digits. */
    static String quote(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '\\' || c == '"') {
                sb.append('\\').append(c);
            } else if (Character.isISOControl(c)) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
