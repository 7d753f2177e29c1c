package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.crypto.AuthenticationFailedException;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The remembered names of {@link NameCipher} never give another answer than encrypting afresh: each
 * answer is compared with that of a second cipher under the same key that has remembered nothing.
 */
class NameCipherMemoTest {
    private static final byte[] KEY = HexFormat.of().parseHex("00112233445566778899aabbccddeeff".repeat(4));
    private static final String DIR_ID = "5a4b3c2d-0000-4000-8000-000000000001";

    private final NameCipher names = new NameCipher(new AesSiv(KEY.clone()));

    private static String fresh(String name, String dirId) {
        return new NameCipher(new AesSiv(KEY.clone())).encrypt(name, dirId);
    }

    @Test
    void aRepeatedEncryptionGivesTheSameNameAndTheParentStillCounts() {
        String first = names.encrypt("notes.txt", DIR_ID);

        assertThat(names.encrypt("notes.txt", DIR_ID)).isEqualTo(first).isEqualTo(fresh("notes.txt", DIR_ID));
        assertThat(names.encrypt("notes.txt", "")).isEqualTo(fresh("notes.txt", "")).isNotEqualTo(first);
    }

    @Test
    void aDecryptedNameEncryptsToWhatWasOnDisk() throws Exception {
        String onDisk = fresh("Résumé 2026.odt", DIR_ID);

        assertThat(names.decrypt(onDisk, DIR_ID)).isEqualTo("Résumé 2026.odt");
        assertThat(names.encrypt("Résumé 2026.odt", DIR_ID)).isEqualTo(onDisk);
    }

    /** A name decrypted (or encrypted) before is answered from memory, and only for its own folder. */
    @Test
    void aRepeatedDecryptionGivesTheSameNameAndOnlyInItsFolder() throws Exception {
        String onDisk = fresh("report.pdf", DIR_ID);
        String mine = names.encrypt("mine.txt", DIR_ID);

        assertThat(names.rememberedName(onDisk, DIR_ID)).isNull();
        assertThat(names.decrypt(onDisk, DIR_ID)).isEqualTo("report.pdf");
        assertThat(names.rememberedName(onDisk, DIR_ID)).isEqualTo("report.pdf");
        assertThat(names.decrypt(onDisk, DIR_ID)).isEqualTo("report.pdf");
        assertThat(names.rememberedName(mine, DIR_ID)).isEqualTo("mine.txt");
        assertThat(names.decrypt(mine, DIR_ID)).isEqualTo("mine.txt");
        assertThat(names.rememberedName(onDisk, "another-dir-id")).isNull();
        assertThatThrownBy(() -> names.decrypt(onDisk, "another-dir-id"))
                .isInstanceOf(AuthenticationFailedException.class);
        assertThatThrownBy(() -> names.decrypt(mine, ""))
                .isInstanceOf(AuthenticationFailedException.class);
    }

    /**
     * A name that failed once fails again: failures are not remembered, nor answered by a remembered
     * name that shares its pair of slots.
     */
    @Test
    void aNameThatDoesNotDecryptKeepsFailingAfterItsNeighbourWasRemembered() throws Exception {
        String onDisk = fresh("photo.jpg", DIR_ID);
        String tampered = tamperedInTheSamePair(onDisk);
        assertThat(names.decrypt(onDisk, DIR_ID)).isEqualTo("photo.jpg");

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> names.decrypt(tampered, DIR_ID)).isInstanceOf(AuthenticationFailedException.class);
        }
    }

    @Test
    void afterLockingNothingIsDecryptedFromMemory() throws Exception {
        AesSiv siv = new AesSiv(KEY.clone());
        NameCipher locked = new NameCipher(siv);
        String onDisk = fresh("secret.txt", DIR_ID);
        assertThat(locked.decrypt(onDisk, DIR_ID)).isEqualTo("secret.txt");

        siv.destroy(); // the order in which a lock does it (CofferFileSystem.close)
        assertThat(locked.rememberedName(onDisk, DIR_ID)).isNull();
        locked.clearCaches();

        assertThatThrownBy(() -> locked.decrypt(onDisk, DIR_ID)).isInstanceOf(IllegalStateException.class);
    }

    /** Base64 padding bits that are not zero decode all the same; what encrypt gives must not change. */
    @Test
    void aNameStoredWithNonCanonicalBase64IsNotRememberedAsItsEncryption() throws Exception {
        String canonical = fresh("a", DIR_ID); // 17 bytes: two padding bits in the last character
        assertThat(canonical).endsWith("=");
        String lastBits = canonical.substring(canonical.length() - 2, canonical.length() - 1);
        String nonCanonical = canonical.substring(0, canonical.length() - 2) + otherCharWithSameValue(lastBits) + "=";
        assertThat(nonCanonical).isNotEqualTo(canonical);
        assertThat(Base64.getUrlDecoder().decode(nonCanonical)).isEqualTo(Base64.getUrlDecoder().decode(canonical));

        assertThat(names.decrypt(nonCanonical, DIR_ID)).isEqualTo("a");
        assertThat(names.encrypt("a", DIR_ID)).isEqualTo(canonical);
    }

    @Test
    void pastItsSizeTheMemoReplacesNamesAndStillAnswersRight() {
        for (int i = 0; i <= 2 * EncryptedNames.SLOTS; i++) {
            names.encrypt("file" + i, DIR_ID); // twice as many names as slots: every slot replaced
        }

        assertThat(names.encrypt("file0", DIR_ID)).isEqualTo(fresh("file0", DIR_ID));
        assertThat(names.encrypt("file" + (2 * EncryptedNames.SLOTS), DIR_ID))
                .isEqualTo(fresh("file" + (2 * EncryptedNames.SLOTS), DIR_ID));
    }

    @Test
    void afterClearingTheCachesNamesStillEncryptTheSame() {
        String before = names.encrypt("kept.txt", DIR_ID);

        names.clearCaches();

        assertThat(names.encrypt("kept.txt", DIR_ID)).isEqualTo(before);
    }

    /** {@code enc} with two characters changed, so that it falls into the same pair of slots as {@code enc}. */
    private static String tamperedInTheSamePair(String enc) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        for (int k = 0; k < alphabet.length(); k++) {
            for (int pos = 1; pos < enc.length() - 2; pos++) {
                for (int j = 0; j < alphabet.length(); j++) {
                    char[] c = enc.toCharArray();
                    c[0] = alphabet.charAt(k);
                    c[pos] = alphabet.charAt(j);
                    String t = new String(c);
                    if (!t.equals(enc) && EncryptedNames.pair(DIR_ID, t) == EncryptedNames.pair(DIR_ID, enc)) {
                        return t;
                    }
                }
            }
        }
        throw new AssertionError("no variant in the same pair"); // ~190,000 variants against 4,096 pairs
    }

    /** The Base64url character whose value differs from {@code c}'s only in the two lowest (unused) bits. */
    private static String otherCharWithSameValue(String c) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        int v = alphabet.indexOf(c);
        return String.valueOf(alphabet.charAt(v ^ 1));
    }
}
