package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The shipped word list and its lookup rules (spec 2.4). */
class Bip39WordListTest {
    @Test
    void theShippedResourceEqualsTheSharedFile() throws Exception {
        byte[] shared = Files.readAllBytes(TestData.shareddata().resolve("bip39-english.txt"));
        try (InputStream in = Bip39WordList.class.getResourceAsStream("bip39-english.txt")) {
            assertThat(in).isNotNull();
            assertThat(in.readAllBytes()).isEqualTo(shared);
        }
    }

    @Test
    void theListHas2048WordsWhoseFirstFourLettersAreUnique() {
        Bip39WordList list = Bip39WordList.english();
        assertThat(list.size()).isEqualTo(2048);
        assertThat(list.word(0)).isEqualTo("abandon");
        assertThat(list.word(2047)).isEqualTo("zoo");
        Set<String> prefixes = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String w = list.word(i);
            prefixes.add(w.length() >= 4 ? w.substring(0, 4) : w);
        }
        assertThat(prefixes).hasSize(2048);
    }

    @Test
    void lookupByWordOrFourLetterPrefix() {
        Bip39WordList list = Bip39WordList.english();
        assertThat(list.indexOf("abandon")).isZero();
        assertThat(list.indexOf("aban")).isZero();
        assertThat(list.indexOf("abandonment")).isZero();
        assertThat(list.indexOf("zoo")).isEqualTo(2047);
        assertThat(list.word(list.indexOf("act"))).isEqualTo("act");
        assertThat(list.indexOf("acti")).isEqualTo(list.indexOf("action"));
        assertThat(list.indexOf("aba")).isEqualTo(Bip39WordList.NO_MATCH);
        assertThat(list.indexOf("zzzz")).isEqualTo(Bip39WordList.NO_MATCH);
        assertThat(list.indexOf("")).isEqualTo(Bip39WordList.NO_MATCH);
    }

    @Test
    void aPrefixSelectingTwoWordsIsNoMatch() {
        // The English list has no such prefix; a synthetic list shows the rule of spec 2.4 holds.
        Bip39WordList list = new Bip39WordList(List.of("abcdef", "abcdxy", "other"));
        assertThat(list.indexOf("abcdz")).isEqualTo(Bip39WordList.NO_MATCH);
        assertThat(list.indexOf("abcdef")).isZero();
        assertThat(list.indexOf("othe")).isEqualTo(2);
    }
}
