package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Passphrase bytes are UTF-8 of the NFC form (spec 2.1). */
class PassphrasesTest {
    @Test
    void asciiIsItsOwnUtf8() {
        assertThat(Passphrases.toNfcUtf8(TestData.PASSPHRASE.toCharArray()))
                .isEqualTo(TestData.PASSPHRASE.getBytes(StandardCharsets.US_ASCII));
        assertThat(Passphrases.toNfcUtf8(new char[0])).isEmpty();
    }

    @Test
    void decomposedAndComposedFormsGiveTheSameBytes() {
        byte[] composed = Passphrases.toNfcUtf8("\u00c5ngstr\u00f6m".toCharArray());
        byte[] decomposed = Passphrases.toNfcUtf8("A\u030angstro\u0308m".toCharArray());
        assertThat(decomposed).isEqualTo(composed).isEqualTo("\u00c5ngstr\u00f6m".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void supplementaryCharactersAreEncodedAsFourBytes() {
        assertThat(Passphrases.toNfcUtf8("\ud83d\udd10 \u65e5\u672c".toCharArray()))
                .isEqualTo("\ud83d\udd10 \u65e5\u672c".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void unpairedSurrogatesAreRefused() {
        assertThatThrownBy(() -> Passphrases.toNfcUtf8(new char[] {'a', '\ud83d'}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Passphrases.toNfcUtf8(new char[] {'\udd10', 'a', '\u00e9', '\u0301'}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
