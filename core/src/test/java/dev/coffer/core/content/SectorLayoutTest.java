package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Exhaustive boundary tests of the unit maths of spec 5.2 and the size table of 5.3. */
class SectorLayoutTest {
    private static final int S = SectorLayout.SECTOR;
    private final SectorLayout hmac = new SectorLayout(32);
    private final SectorLayout xts = new SectorLayout(0);

    @Test
    void sizeRoundTripsThroughCiphertextLengthForEverySizeUpToFourUnits() {
        for (long n = 0; n <= 4L * S + 40; n++) {
            assertThat(hmac.cleartextSize(hmac.ciphertextLength(n))).as("hmac n=%d", n).isEqualTo(n);
            assertThat(xts.cleartextSize(xts.ciphertextLength(n))).as("xts n=%d", n).isEqualTo(n);
        }
    }

    @Test
    void everyHmacLengthMapsToAtMostOneSizeAndImpossibleLengthsAreDamaged() {
        java.util.Map<Long, Long> seen = new java.util.HashMap<>();
        for (long n = 0; n <= 3L * S + 40; n++) {
            seen.put(hmac.ciphertextLength(n), n);
        }
        for (long l = 0; l <= hmac.ciphertextLength(3L * S + 40); l++) {
            long n = hmac.cleartextSize(l);
            if (seen.containsKey(l)) {
                assertThat(n).as("L=%d", l).isEqualTo(seen.get(l));
            } else {
                assertThat(n).as("L=%d is not a possible length", l).isEqualTo(-1);
            }
        }
    }

    @Test
    void unitsAreFullSectorsWithAMergedOrShortLastUnit() {
        for (long n = 1; n <= 4L * S + 40; n++) {
            long count = hmac.unitCount(n);
            long total = 0;
            for (long i = 0; i < count; i++) {
                int len = hmac.unitLength(i, n);
                assertThat(SectorLayout.unitStart(i)).isEqualTo(total);
                if (i < count - 1) {
                    assertThat(len).isEqualTo(S);
                } else if (count > 1) {
                    assertThat(len).isBetween(16, S + 15);
                } else {
                    assertThat(len).isBetween(1, S + 15);
                }
                total += len;
            }
            assertThat(total).isEqualTo(n);
            assertThat(hmac.unitOf(n - 1, n)).isEqualTo(count - 1);
        }
    }

    @Test
    void namedBoundaries() {
        assertThat(hmac.unitCount(S + 1)).isEqualTo(1); // merged S+1
        assertThat(hmac.unitLength(0, S + 15)).isEqualTo(S + 15);
        assertThat(hmac.unitCount(S + 16)).isEqualTo(2);
        assertThat(hmac.unitLength(1, S + 16)).isEqualTo(16);
        assertThat(hmac.unitLength(2, 3L * S + 7)).isEqualTo(S + 7);
        assertThat(hmac.ciphertextLength(15)).isEqualTo(48 + 15 + 32);
        assertThat(hmac.cleartextSize(48)).isEqualTo(-1);
        assertThat(hmac.cleartextSize(4208)).isEqualTo(-1); // damaged item i: rem = 32
        assertThat(xts.cleartextSize(40)).isEqualTo(-1);
        assertThat(xts.cleartextSize(49)).isEqualTo(1);
    }

    @Test
    void sizeTableOfTheIndependentImplementation() throws Exception {
        com.fasterxml.jackson.databind.JsonNode table = TestData.vectors().get("sizeFromCiphertextLength");
        check(table.get("SIV_XTSHMAC"), hmac);
        check(table.get("SIV_XTS"), xts);
    }

    private static void check(com.fasterxml.jackson.databind.JsonNode rows, SectorLayout layout) {
        assertThat(rows.size()).isGreaterThan(10);
        for (com.fasterxml.jackson.databind.JsonNode row : rows) {
            long l = row.get(0).asLong();
            long expected = row.get(1).isNull() ? -1 : row.get(1).asLong();
            assertThat(layout.cleartextSize(l)).as("L=%d", l).isEqualTo(expected);
        }
    }
}
