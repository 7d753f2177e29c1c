package dev.coffer.app.ui;

import java.nio.CharBuffer;
import java.util.Arrays;

/**
 * The characters of a secret being edited, in a {@code char[]} this class owns: replacing a range
 * (typing, deleting, pasting over a selection) edits it in place, and every array it leaves behind
 * (when it grows, when it is taken, when it is wiped) is zeroed. Never makes a String of the secret.
 *
 * <p>Not responsible for showing anything ({@link PassphraseField}).
 */
final class SecretBuffer {
    private char[] chars = new char[32];
    private int length;

    int length() {
        return length;
    }

    char charAt(int index) {
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException(index);
        }
        return chars[index];
    }

    /** Replaces {@code [start, end)} with {@code inserted}. */
    void replace(int start, int end, CharSequence inserted) {
        if (start < 0 || end < start || end > length) {
            throw new IndexOutOfBoundsException("[" + start + ", " + end + ") of " + length);
        }
        int newLength = length - (end - start) + inserted.length();
        if (newLength > chars.length) {
            char[] bigger = Arrays.copyOf(chars, Math.max(newLength, chars.length * 2));
            Arrays.fill(chars, '\0');
            chars = bigger;
        }
        System.arraycopy(chars, end, chars, start + inserted.length(), length - end);
        for (int i = 0; i < inserted.length(); i++) {
            chars[start + i] = inserted.charAt(i);
        }
        if (newLength < length) {
            Arrays.fill(chars, newLength, length, '\0');
        }
        length = newLength;
    }

    /**
     * {@code [start, end)} widened so that it does not split a surrogate pair (the field shows one
     * bullet per char, so a caret can fall between the two halves of an emoji). An empty range (an
     * insertion point) is moved past the pair instead: typing there must not delete the emoji.
     */
    int[] wholeCodePoints(int start, int end) {
        if (start == end) {
            int at = splitsPair(start) ? start + 1 : start;
            return new int[] {at, at};
        }
        if (splitsPair(start)) {
            start--;
        }
        if (splitsPair(end)) {
            end++;
        }
        return new int[] {start, end};
    }

    private boolean splitsPair(int index) {
        return index > 0 && index < length && Character.isLowSurrogate(chars[index]) && Character.isHighSurrogate(chars[index - 1]);
    }

    /** A view of the current characters (no copy); valid until the next edit. */
    CharSequence view() {
        return CharBuffer.wrap(chars, 0, length).asReadOnlyBuffer();
    }

    /** A copy of the characters for the caller to wipe; this buffer is wiped. */
    char[] take() {
        char[] out = Arrays.copyOf(chars, length);
        wipe();
        return out;
    }

    void wipe() {
        Arrays.fill(chars, '\0');
        length = 0;
    }
}
