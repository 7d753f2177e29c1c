package dev.coffer.core.names;

import dev.coffer.core.crypto.AuthenticationFailedException;

/**
 * Recognises sync-conflict copies of entries by decryption, not by vendor patterns (spec 6):
 * <ul>
 *   <li>{@code <stem>.c9r} whose stem does not decrypt is a copy of {@code X} if a prefix of the
 *       stem whose length is a multiple of 4 and at least 24 decrypts under the folder's ID;
 *       {@code X} is the longest such prefix, the rest is the decoration;</li>
 *   <li>{@code <stem>.c9s} is a copy if its stem starts with {@code s} computed from its own
 *       {@code name.c9s} and is longer; the rest is the decoration.</li>
 * </ul>
 * Only names: it does not look at the disk, and whether the copy is complete, safe to use or
 * identical to {@code X} is for {@link ConflictResolver} to decide.
 */
public final class ConflictRecognition {
    /** The shortest encrypted name: a 16-byte SIV tag in padded Base64url. */
    static final int MIN_ENC_NAME = 24;
    /**
     * The longest encrypted name of a valid cleartext name: 16 + 255 bytes in padded Base64url.
     * Longer prefixes cannot decrypt to a name a writer may store, so they are not tried; this
     * also bounds the work per on-disk name (each try is one decryption of the prefix).
     */
    static final int MAX_ENC_NAME = (16 + Names.MAX_BYTES + 2) / 3 * 4;

    private final NameCipher names;

    public ConflictRecognition(NameCipher names) {
        this.names = names;
    }

    /**
     * A recognised copy.
     *
     * @param original      on-disk name of {@code X} ({@code <encName>.c9r} or {@code <s>.c9s})
     * @param decoration    what the sync client added (never empty)
     * @param cleartextName NFC cleartext name {@code N} of {@code X}
     */
    public record Copy(String original, String decoration, String cleartextName) {}

    /**
     * The copy that {@code onDiskName} stands for, or null if it is no conflict copy (foreign, or
     * a name that decrypts as it is).
     *
     * @param nameC9s content of the copy's {@code name.c9s} for a {@code .c9s} name, else ignored
     */
    public Copy recognize(String onDiskName, String nameC9s, String dirId) {
        if (onDiskName.startsWith(".")) {
            return null;
        }
        if (onDiskName.endsWith(LongNames.C9R)) {
            return recognizeShort(stem(onDiskName, LongNames.C9R), dirId);
        }
        if (onDiskName.endsWith(LongNames.C9S) && nameC9s != null) {
            return recognizeShortened(stem(onDiskName, LongNames.C9S), nameC9s, dirId);
        }
        return null;
    }

    private Copy recognizeShort(String stem, String dirId) {
        if (decrypt(stem, dirId) != null) {
            return null;
        }
        for (int len = Math.min(stem.length() - 1, MAX_ENC_NAME) / 4 * 4; len >= MIN_ENC_NAME; len -= 4) {
            String prefix = stem.substring(0, len);
            String name = decrypt(prefix, dirId);
            if (name != null) {
                return new Copy(prefix + LongNames.C9R, stem.substring(len), Names.nfc(name));
            }
        }
        return null;
    }

    private Copy recognizeShortened(String stem, String nameC9s, String dirId) {
        if (!nameC9s.endsWith(LongNames.C9R)) {
            return null;
        }
        String original = LongNames.shortened(nameC9s);
        String s = stem(original, LongNames.C9S);
        if (stem.length() <= s.length() || !stem.startsWith(s)) {
            return null;
        }
        String name = decrypt(stem(nameC9s, LongNames.C9R), dirId);
        return name == null ? null : new Copy(original, stem.substring(s.length()), Names.nfc(name));
    }

    private String decrypt(String encName, String dirId) {
        try {
            return names.decrypt(encName, dirId);
        } catch (AuthenticationFailedException e) {
            return null;
        }
    }

    private static String stem(String name, String ext) {
        return name.substring(0, name.length() - ext.length());
    }
}
