package dev.coffer.core.vault;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Arrays;

/**
 * Converts a passphrase to the bytes scrypt sees: UTF-8 of its NFC form (spec 2.1), in a fresh
 * array the caller wipes. Not responsible for any passphrase policy (length, strength).
 */
final class Passphrases {
    /** Below U+0300 every character is NFC-stable with combining class 0: no normalisation needed. */
    private static final char FIRST_NON_TRIVIAL = '\u0300';

    private Passphrases() {}

    /**
     * UTF-8(NFC(passphrase)). For passphrases made only of characters below U+0300 (ASCII, Latin)
     * no String is ever made. Other passphrases go through {@link Normalizer}, the JDK's only NFC
     * implementation, which works on Strings internally: that String is out of our reach to wipe.
     *
     * @throws IllegalArgumentException if the passphrase holds an unpaired surrogate
     */
    static byte[] toNfcUtf8(char[] passphrase) {
        if (isTriviallyNfc(passphrase)) {
            return encode(CharBuffer.wrap(passphrase));
        }
        return encode(CharBuffer.wrap(Normalizer.normalize(CharBuffer.wrap(passphrase), Normalizer.Form.NFC)));
    }

    private static boolean isTriviallyNfc(char[] passphrase) {
        for (char c : passphrase) {
            if (c >= FIRST_NON_TRIVIAL) {
                return false;
            }
        }
        return true;
    }

    private static byte[] encode(CharBuffer chars) {
        CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        // Sized for the worst case up front: the encoder's own growing would leave unwiped copies.
        ByteBuffer out = ByteBuffer.allocate(chars.remaining() * (int) encoder.maxBytesPerChar());
        try {
            CoderResult result = encoder.encode(chars, out, true);
            if (result.isError()) {
                throw new IllegalArgumentException("passphrase is not valid Unicode (unpaired surrogate)");
            }
            encoder.flush(out);
            return Arrays.copyOf(out.array(), out.position());
        } finally {
            Arrays.fill(out.array(), (byte) 0);
        }
    }
}
