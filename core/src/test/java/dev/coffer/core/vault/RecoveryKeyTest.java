package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.coffer.core.crypto.MasterKey;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Recovery words against vectors.json, the typing rules of spec 2.4, and garbage input. */
class RecoveryKeyTest {
    private static final JsonNode VECTOR = TestData.vectors().get("recoveryKey");
    private static final byte[] M = TestData.hex(TestData.vectors().get("masterKey").get("M").asText());
    private static final String WORDS = VECTOR.get("words").asText();
    private static final Bip39WordList LIST = Bip39WordList.english();

    @Test
    void wordsAndChecksumMatchTheVector() {
        assertThat(HexFormat.of().formatHex(RecoveryKey.checksum(M))).isEqualTo(VECTOR.get("checksum").asText());
        assertThat(RecoveryKey.words(MasterKey.of(M), LIST)).hasSize(48).containsExactly(WORDS.split(" "));
    }

    @Test
    void theVectorWordsGiveM() throws Exception {
        assertThat(RecoveryKey.parse(WORDS, LIST).copyBytes()).isEqualTo(M);
    }

    @Test
    void anySpacingAnyCaseAndFourLetterPrefixesAreAccepted() throws Exception {
        String[] words = WORDS.split(" ");
        List<String> typed = new ArrayList<>();
        for (int i = 0; i < words.length; i++) {
            String w = words[i];
            typed.add(i % 3 == 0 && w.length() > 4 ? w.substring(0, 4) : i % 3 == 1 ? w.toUpperCase(Locale.ROOT) : w);
        }
        String[] separators = {"\t", " \u00a0", "\r\n", "   "};
        StringBuilder input = new StringBuilder("\n  ");
        for (int i = 0; i < typed.size(); i++) {
            input.append(typed.get(i)).append(separators[i % separators.length]);
        }
        assertThat(RecoveryKey.parse(input.toString(), LIST).copyBytes()).isEqualTo(M);
    }

    @Test
    void randomKeysRoundTrip() throws Exception {
        SecureRandom random = new SecureRandom();
        for (int i = 0; i < 50; i++) {
            MasterKey key = MasterKey.generate(random);
            String typed = String.join(" ", RecoveryKey.words(key, LIST));
            assertThat(RecoveryKey.parse(typed, LIST).sameKeyAs(key)).isTrue();
        }
    }

    @Test
    void wrongWordCountsAreRefused() {
        String[] words = WORDS.split(" ");
        String fortySeven = String.join(" ", Arrays.copyOf(words, 47));
        assertThatThrownBy(() -> RecoveryKey.parse(fortySeven, LIST))
                .isExactlyInstanceOf(InvalidRecoveryKeyException.class)
                .hasMessage("a recovery key has 48 words, this one has 47");
        assertThatThrownBy(() -> RecoveryKey.parse(WORDS + " zoo", LIST)).hasMessageContaining("this one has 49");
        assertThatThrownBy(() -> RecoveryKey.parse("", LIST)).hasMessageContaining("this one has 0");
        assertThatThrownBy(() -> RecoveryKey.parse(" \n\t ", LIST)).hasMessageContaining("this one has 0");
    }

    @Test
    void unknownWordsShortTokensAndUnmatchedPrefixesAreRefusedWithoutEchoingThem() {
        assertThatThrownBy(() -> RecoveryKey.parse(replaceWord(5, "qwertz"), LIST))
                .isExactlyInstanceOf(InvalidRecoveryKeyException.class)
                .hasMessageStartingWith("word 6 of the recovery key is not in the word list")
                .hasMessageNotContaining("qwertz");
        assertThatThrownBy(() -> RecoveryKey.parse(replaceWord(0, "aba"), LIST))
                .hasMessageStartingWith("word 1 of the recovery key is not in the word list");
        assertThatThrownBy(() -> RecoveryKey.parse(replaceWord(47, "acts"), LIST))
                .hasMessageStartingWith("word 48 of the recovery key is not in the word list");
        assertThatThrownBy(() -> RecoveryKey.parse(replaceWord(10, "\u00e4bcd"), LIST))
                .hasMessageStartingWith("word 11 ");
    }

    @Test
    void aWrongOrSwappedWordFailsTheChecksum() {
        assertThatThrownBy(() -> RecoveryKey.parse(replaceWord(3, "zoo"), LIST))
                .isExactlyInstanceOf(InvalidRecoveryKeyException.class)
                .hasMessage("recovery key checksum does not match: a word is wrong or out of order");
        String[] words = WORDS.split(" ");
        String tmp = words[1];
        words[1] = words[2];
        words[2] = tmp;
        assertThatThrownBy(() -> RecoveryKey.parse(String.join(" ", words), LIST)).hasMessageContaining("checksum");
    }

    @Test
    void randomTextNeverCrashes() {
        Random random = new Random(11);
        for (int i = 0; i < 500; i++) {
            StringBuilder sb = new StringBuilder();
            int n = 46 + random.nextInt(4);
            for (int w = 0; w < n; w++) {
                sb.append(random.nextBoolean() ? LIST.word(random.nextInt(2048)) : Integer.toString(random.nextInt(), 36)).append(' ');
            }
            try {
                RecoveryKey.parse(sb.toString(), LIST);
            } catch (InvalidRecoveryKeyException expected) {
                assertThat(expected.getMessage()).isNotBlank();
            }
        }
    }

    private static String replaceWord(int index, String replacement) {
        String[] words = WORDS.split(" ");
        words[index] = replacement;
        return String.join(" ", words);
    }
}
