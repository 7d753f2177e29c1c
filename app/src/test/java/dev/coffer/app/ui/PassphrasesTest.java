package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The new-passphrase rules the GUI applies, counted as the CLI counts them. */
class PassphrasesTest {
    @Test
    void charactersAreCountedAsCodePointsAsTheCliCountsThem() {
        String fourEmoji = "\uD83D\uDD10".repeat(4); // 8 UTF-16 chars, 4 characters
        assertThat(Passphrases.problemKey(fourEmoji, fourEmoji)).isEqualTo("passphrase.tooShort");
        String eightEmoji = "\uD83D\uDD10".repeat(8);
        assertThat(Passphrases.problemKey(eightEmoji, eightEmoji)).isEmpty();
    }

    @Test
    void shortMismatchedAndAcceptablePassphrasesAreToldApart() {
        assertThat(Passphrases.problemKey("seven77", "seven77")).isEqualTo("passphrase.tooShort");
        assertThat(Passphrases.problemKey("eight888", "eight889")).isEqualTo("passphrase.mismatch");
        assertThat(Passphrases.problemKey("eight888", "eight888")).isEmpty();
    }
}
