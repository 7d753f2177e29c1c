package dev.coffer.core.names;

/**
 * Recognises decorated copies of internal files ({@code dir (1).c9r}, {@code dirid (conflicted copy).c9r}):
 * {@code <base><decoration>.c9r} whose decoration is non-empty and does not start with a letter or
 * digit, so that {@code dirid.c9r} is never a copy of {@code dir.c9r} (README interpretation).
 */
public final class Decorations {
    private Decorations() {}

    /** True if {@code fileName} is a decorated copy of {@code base + ".c9r"}. */
    public static boolean isDecoratedCopy(String fileName, String base) {
        String ext = fileName.endsWith(LongNames.C9R) ? LongNames.C9R : fileName.endsWith(LongNames.C9S) ? LongNames.C9S : null;
        if (ext == null || !fileName.startsWith(base)) {
            return false;
        }
        String decoration = fileName.substring(base.length(), fileName.length() - ext.length());
        return !decoration.isEmpty() && !Character.isLetterOrDigit(decoration.codePointAt(0));
    }
}
