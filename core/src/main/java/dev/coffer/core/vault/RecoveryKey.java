package dev.coffer.core.vault;

import dev.coffer.core.crypto.Bytes;
import dev.coffer.core.crypto.MasterKey;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The recovery key of spec 2.4: M followed by the first two bytes of SHA-256(M), 528 bits written
 * as 48 words of 11 bits (most significant bit first), and the reverse with its checksum check.
 *
 * <p>Not responsible for checking the key against a vault (the vault.coffer signature, in
 * {@link VaultAccess}). Messages name word positions, never words: they are secret.
 */
final class RecoveryKey {
    static final int WORDS = 48;
    private static final int BITS_PER_WORD = 11;
    private static final int CHECKSUM_LENGTH = 2;
    private static final int TOTAL_BYTES = MasterKey.LENGTH + CHECKSUM_LENGTH;

    private RecoveryKey() {}

    /** The 48 words of {@code key}. */
    static List<String> words(MasterKey key, Bip39WordList list) {
        byte[] all = new byte[TOTAL_BYTES];
        byte[] m = key.copyBytes();
        try {
            System.arraycopy(m, 0, all, 0, m.length);
            System.arraycopy(checksum(m), 0, all, m.length, CHECKSUM_LENGTH);
            List<String> words = new ArrayList<>(WORDS);
            for (int w = 0; w < WORDS; w++) {
                int index = 0;
                for (int b = w * BITS_PER_WORD; b < (w + 1) * BITS_PER_WORD; b++) {
                    index = (index << 1) | ((all[b >> 3] >> (7 - (b & 7))) & 1);
                }
                words.add(list.word(index));
            }
            return List.copyOf(words);
        } finally {
            Bytes.wipe(all, m);
        }
    }

    /** M from typed words: whitespace-separated, any case, exact words or unique 4-letter prefixes. */
    static MasterKey parse(String typed, Bip39WordList list) throws InvalidRecoveryKeyException {
        // Unicode-aware \s, so that a no-break space pasted between words also separates them.
        String[] tokens = Arrays.stream(typed.split("(?U)\\s+")).filter(t -> !t.isEmpty()).toArray(String[]::new);
        if (tokens.length != WORDS) {
            throw new InvalidRecoveryKeyException("a recovery key has 48 words, this one has " + tokens.length);
        }
        byte[] all = new byte[TOTAL_BYTES];
        byte[] expected = null;
        try {
            for (int w = 0; w < WORDS; w++) {
                int index = list.indexOf(tokens[w].toLowerCase(Locale.ROOT));
                if (index == Bip39WordList.NO_MATCH) {
                    throw new InvalidRecoveryKeyException("word " + (w + 1) + " of the recovery key is not in the word list"
                            + " (type the whole word, or at least its first four letters)");
                }
                for (int i = 0; i < BITS_PER_WORD; i++) {
                    int b = w * BITS_PER_WORD + i;
                    all[b >> 3] |= (byte) (((index >> (BITS_PER_WORD - 1 - i)) & 1) << (7 - (b & 7)));
                }
            }
            byte[] m = Arrays.copyOf(all, MasterKey.LENGTH);
            try {
                expected = checksum(m);
                if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(all, MasterKey.LENGTH, TOTAL_BYTES))) {
                    throw new InvalidRecoveryKeyException("recovery key checksum does not match: a word is wrong or out of order");
                }
                return MasterKey.of(m);
            } finally {
                Bytes.wipe(m);
            }
        } finally {
            Bytes.wipe(all, expected);
        }
    }

    /** The first two bytes of SHA-256(M). */
    static byte[] checksum(byte[] m) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(m);
            byte[] c = Arrays.copyOf(digest, CHECKSUM_LENGTH);
            Bytes.wipe(digest);
            return c;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required on every Java platform", e);
        }
    }
}
