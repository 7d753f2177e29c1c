package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Utf8OrderTest {

    private static int byBytes(String a, String b) {
        return Integer.signum(Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aSupplementaryCodePointSortsAfterThePrivateUseAndSpecialsBlocks() {
        String emoji = "\uD83D\uDE00"; // U+1F600, 4 UTF-8 bytes starting F0
        String replacement = "\uFFFD"; // 3 UTF-8 bytes starting EF
        assertThat(emoji.compareTo(replacement)).isNegative(); // UTF-16 order gets it wrong
        assertThat(Utf8Order.compare(emoji, replacement)).isPositive();
        assertThat(Utf8Order.compare(replacement, emoji)).isNegative();
    }

    @Test
    void aPrefixSortsFirstAndEqualStringsCompareEqual() {
        assertThat(Utf8Order.compare("abc", "abcd")).isNegative();
        assertThat(Utf8Order.compare("abcd", "abc")).isPositive();
        assertThat(Utf8Order.compare("x\uE000", "x\uE000")).isZero();
    }

    @Test
    void agreesWithComparingEncodedBytesOnRandomWellFormedStrings() {
        Random random = new Random(20261121L);
        // Code points from the ranges where UTF-16 and UTF-8 orders could disagree, and ASCII.
        int[][] ranges = {{0x20, 0x7e}, {0x80, 0x7ff}, {0xd000, 0xd7ff}, {0xe000, 0xffff}, {0x10000, 0x10ffff}};
        for (int round = 0; round < 20_000; round++) {
            String a = randomString(random, ranges);
            String b = random.nextInt(4) == 0 ? a + randomString(random, ranges) : randomString(random, ranges);
            assertThat(Integer.signum(Utf8Order.compare(a, b))).as("%s vs %s", a, b).isEqualTo(byBytes(a, b));
        }
    }

    @Test
    void sortsListsInByteOrder() {
        List<String> names = Arrays.asList("\uFFFD.c9r", "\uD83D\uDE00.c9r", "B.c9r", "a.c9r", "dirid.c9r", "A.c9s");
        names.sort(Utf8Order.COMPARATOR);
        assertThat(names).containsExactly("A.c9s", "B.c9r", "a.c9r", "dirid.c9r", "\uFFFD.c9r", "\uD83D\uDE00.c9r");
    }

    private static String randomString(Random random, int[][] ranges) {
        StringBuilder sb = new StringBuilder();
        int length = random.nextInt(4);
        for (int i = 0; i < length; i++) {
            int[] range = ranges[random.nextInt(ranges.length)];
            int cp = range[0] + random.nextInt(range[1] - range[0] + 1);
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }
}
