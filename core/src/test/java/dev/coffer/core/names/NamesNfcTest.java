package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import java.text.Normalizer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/**
 * {@link Names#nfc} answers names of characters below U+0300 without the JDK's normalizer; these
 * tests hold it to the JDK's answer, for those names and for every other.
 */
class NamesNfcTest {

    @Test
    void everyPairOfCharactersBelowU0300IsAlreadyNfc() {
        // The premise of the shortcut, checked exhaustively: alone, and after every other such character.
        for (char a = 0; a < 0x300; a++) {
            assertThat(Normalizer.isNormalized(String.valueOf(a), Normalizer.Form.NFC)).as("U+%04X", (int) a).isTrue();
            for (char b = 0; b < 0x300; b++) {
                String pair = new String(new char[] {a, b});
                if (!Normalizer.isNormalized(pair, Normalizer.Form.NFC)) {
                    throw new AssertionError(String.format("U+%04X U+%04X is not NFC", (int) a, (int) b));
                }
            }
        }
    }

    @Test
    void composesWhatTheShortcutDoesNotCover() {
        assertThat(Names.nfc("cafe\u0301")).isEqualTo("caf\u00e9");
        assertThat(Names.nfc("\u212b")).isEqualTo("\u00c5"); // ANGSTROM SIGN, a singleton
        assertThat(Names.nfc("\u1100\u1161")).isEqualTo("\uac00"); // Hangul jamo
        assertThat(Names.nfc("plain-name_1.txt")).isEqualTo("plain-name_1.txt");
    }

    @Property(tries = 3000)
    void agreesWithTheJdk(@ForAll("names") String name) {
        assertThat(Names.nfc(name)).isEqualTo(Normalizer.normalize(name, Normalizer.Form.NFC));
    }

    @Provide
    Arbitrary<String> names() {
        Arbitrary<Character> low = Arbitraries.chars().range('\u0000', '\u02ff');
        Arbitrary<Character> marks = Arbitraries.chars().range('\u0300', '\u036f');
        Arbitrary<Character> any = Arbitraries.chars().range('\u0000', '\ufffd');
        return Arbitraries.frequencyOf(
                        Tuple.of(6, low),
                        Tuple.of(2, marks),
                        Tuple.of(1, any))
                .list().ofMinSize(0).ofMaxSize(12)
                .map(chars -> {
                    StringBuilder b = new StringBuilder();
                    chars.forEach(b::append);
                    return b.toString();
                });
    }
}
