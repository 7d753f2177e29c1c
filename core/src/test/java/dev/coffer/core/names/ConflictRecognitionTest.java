package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.coffer.core.crypto.AesSiv;
import java.util.HexFormat;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConflictRecognitionTest {
    private static final JsonNode VECTORS = TestData.vectors();
    private final NameCipher names = new NameCipher(new AesSiv(HexFormat.of().parseHex(VECTORS.get("derivedKeys").get("sivKey").asText())));
    private final ConflictRecognition recognition = new ConflictRecognition(names);

    @Test
    void recognisesTheReferenceCopiesAndNamesThemLikeTheReference() {
        JsonNode cases = VECTORS.get("conflictRecognition");
        assertThat(cases.size()).isGreaterThan(0);
        for (JsonNode c : cases) {
            String nameC9s = c.get("nameC9s").isNull() ? null : c.get("nameC9s").asText();
            ConflictRecognition.Copy copy = recognition.recognize(c.get("onDiskName").asText(), nameC9s, c.get("parentDirId").asText());
            assertThat(copy).as(c.toString()).isEqualTo(new ConflictRecognition.Copy(
                    c.get("X").asText(), c.get("decoration").asText(), c.get("cleartextName").asText()));
            assertThat(ConflictNames.firstFreeConflictName(copy.cleartextName(), copy.decoration(), Set.<String>of()::contains))
                    .isEqualTo(c.get("resolvedName").asText());
        }
    }

    @Test
    void aCopyOfTheLongestNameIsStillRecognised() {
        String longest = "\u00e9".repeat(127) + "x"; // 255 bytes
        String enc = names.encrypt(longest, "");
        assertThat(enc).hasSize(ConflictRecognition.MAX_ENC_NAME);
        assertThat(recognition.recognize(enc + " (1).c9r", null, ""))
                .isEqualTo(new ConflictRecognition.Copy(enc + ".c9r", " (1)", longest));
    }

    /** Regression (found by NamesFuzzTest): every prefix of a huge name was decrypted, quadratic work (over 5 s for 145,000 characters). */
    @Test
    void aHugeDecoratedNameIsAnsweredQuickly() {
        String enc = names.encrypt("hello.txt", "");
        long start = System.nanoTime();
        ConflictRecognition.Copy copy = recognition.recognize(enc + "g".repeat(1_000_000) + ".c9r", null, "");
        assertThat(copy.original()).isEqualTo(enc + ".c9r");
        assertThat(copy.cleartextName()).isEqualTo("hello.txt");
        assertThat(recognition.recognize("A".repeat(1_000_000) + ".c9r", null, "")).isNull();
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(2_000);
    }

    @Test
    void aNameThatDecryptsAsItIsIsNoCopy() {
        String enc = names.encrypt("hello.txt", "");
        assertThat(recognition.recognize(enc + ".c9r", null, "")).isNull();
    }

    @Test
    void foreignNamesAreNoCopies() {
        String enc = names.encrypt("hello.txt", "");
        assertThat(recognition.recognize("garbage.c9r", null, "")).isNull();
        assertThat(recognition.recognize("desktop.ini", null, "")).isNull();
        assertThat(recognition.recognize("._" + enc + " (1).c9r", null, "")).isNull();
        // a copy recognised only under its own folder's ID
        assertThat(recognition.recognize(enc + " (1).c9r", null, "2b4e4a8c-1f7e-4c38-9a7b-0d3e5f6a7b8c")).isNull();
        assertThat(recognition.recognize(enc + " (1).c9r", null, "")).isNotNull();
    }

    @Test
    void theLongestDecryptingPrefixWins() {
        // The decoration "-DESKTOP-4F2G" consists of Base64url characters: shorter and longer prefixes are tried.
        String enc = names.encrypt("report2026.txt", "");
        ConflictRecognition.Copy copy = recognition.recognize(enc + "-DESKTOP-4F2G.c9r", null, "");
        assertThat(copy).isEqualTo(new ConflictRecognition.Copy(enc + ".c9r", "-DESKTOP-4F2G", "report2026.txt"));
    }

    @Test
    void shortenedCopiesNeedTheirOwnNameFileHashAsPrefixAndADecoration() {
        String c9r = names.encrypt("n".repeat(160), "") + ".c9r";
        String s = LongNames.shortened(c9r);
        String stem = s.substring(0, s.length() - 4);
        assertThat(recognition.recognize(stem + " (1).c9s", c9r, ""))
                .isEqualTo(new ConflictRecognition.Copy(s, " (1)", "n".repeat(160)));
        assertThat(recognition.recognize(s, c9r, "")).isNull();
        assertThat(recognition.recognize("AAAA" + stem + " (1).c9s", c9r, "")).isNull();
        assertThat(recognition.recognize(stem + " (1).c9s", null, "")).isNull();
        String otherC9r = names.encrypt("m".repeat(160), "") + ".c9r";
        assertThat(recognition.recognize(stem + " (1).c9s", otherC9r, "")).isNull();
    }
}
