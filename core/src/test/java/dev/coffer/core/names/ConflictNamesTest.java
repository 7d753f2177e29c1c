package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConflictNamesTest {

    private static Set<String> strings(JsonNode array) {
        Set<String> out = new HashSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void conflictNamesMatchTheReferenceVectors() {
        JsonNode cases = TestData.vectors().get("conflictNames");
        assertThat(cases.size()).isGreaterThan(0);
        for (JsonNode c : cases) {
            Set<String> taken = strings(c.get("taken"));
            String result = ConflictNames.firstFreeConflictName(c.get("name").asText(), c.get("decoration").asText(), taken::contains);
            assertThat(result).as(c.toString()).isEqualTo(c.get("result").asText());
        }
    }

    @Test
    void internalConflictNamesMatchTheReferenceVectors() {
        JsonNode cases = TestData.vectors().get("internalConflictNames");
        assertThat(cases.size()).isGreaterThan(0);
        for (JsonNode c : cases) {
            Set<String> taken = strings(c.get("taken"));
            String result = ConflictNames.firstFreeInternalConflictName(c.get("name").asText(), taken::contains);
            assertThat(result).as(c.toString()).isEqualTo(c.get("result").asText());
        }
    }

    @Test
    void extensionStartsAtTheLastDotUnlessItIsTheFirstCharacter() {
        assertThat(ConflictNames.splitExtension("archive.tar.gz")).containsExactly("archive.tar", ".gz");
        assertThat(ConflictNames.splitExtension(".bashrc")).containsExactly(".bashrc", "");
        assertThat(ConflictNames.splitExtension("..x")).containsExactly(".", ".x");
        assertThat(ConflictNames.splitExtension("folder")).containsExactly("folder", "");
        assertThat(ConflictNames.splitExtension("trailing.")).containsExactly("trailing", ".");
    }

    @Test
    void cuttingRemovesWholeCodePointsFromTheStemFirst() {
        String name = "🔐".repeat(62) + ".txt"; // 248 + 4 bytes
        String result = ConflictNames.conflictName(name, " (1)", 1);
        assertThat(result).isEqualTo("🔐".repeat(61) + " (1).txt");
        assertThat(result.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(255);
    }

    @Test
    void whenTheStemIsGoneTheDecorationThenTheExtensionAreCutButNeverTheCounter() {
        String decoration = "d".repeat(200);
        String ext = "." + "e".repeat(100);
        String name = "s" + ext;
        assertThat(ConflictNames.conflictName(name, decoration, 1)).isEqualTo("d".repeat(154) + ext);
        assertThat(ConflictNames.conflictName(name, decoration, 2)).isEqualTo("d".repeat(150) + " (2)" + ext);
        String hugeExt = "." + "e".repeat(253);
        assertThat(ConflictNames.conflictName("s" + hugeExt, "-x", 3)).isEqualTo(" (3)" + hugeExt.substring(0, 251));
    }

    @Test
    void resultsAreNfcEvenWhenTheDecorationIsNot() {
        String nfdDecoration = Normalizer.normalize(" (Jürgen's conflicted copy)", Normalizer.Form.NFD);
        String result = ConflictNames.conflictName("a.txt", nfdDecoration, 1);
        assertThat(result).isEqualTo("a (Jürgen's conflicted copy).txt");
        assertThat(Normalizer.isNormalized(result, Normalizer.Form.NFC)).isTrue();
    }

    @Test
    void internalNamesCountFromOne() {
        assertThat(ConflictNames.internalConflictName("photos", 1)).isEqualTo("photos (Conflict 1)");
        assertThat(ConflictNames.firstFreeInternalConflictName("a.txt",
                Set.of("a.txt (Conflict 1)", "a.txt (Conflict 2)")::contains)).isEqualTo("a.txt (Conflict 3)");
    }
}
