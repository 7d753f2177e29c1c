package dev.coffer.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Known-answer tests of {@link Hkdf} against RFC 5869 Appendix A, test cases 1 to 3 (SHA-256). */
class HkdfRfc5869Test {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void case1BasicWithSaltAndInfo() {
        byte[] okm = Hkdf.sha256(HEX.parseHex("0b".repeat(22)), HEX.parseHex("000102030405060708090a0b0c"),
                HEX.parseHex("f0f1f2f3f4f5f6f7f8f9"), 42);
        assertThat(HEX.formatHex(okm)).isEqualTo(
                "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
    }

    @Test
    void case2LongerInputsAndOutput() {
        byte[] okm = Hkdf.sha256(range(0x00, 0x50), range(0x60, 0xb0), range(0xb0, 0x100), 82);
        assertThat(HEX.formatHex(okm)).isEqualTo(
                "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
                + "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
                + "cc30c58179ec3e87c14c01d5c1f3434f1d87");
    }

    @Test
    void case3EmptySaltAndInfo() {
        byte[] okm = Hkdf.sha256(HEX.parseHex("0b".repeat(22)), new byte[0], new byte[0], 42);
        assertThat(HEX.formatHex(okm)).isEqualTo(
                "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8");
    }

    @Test
    void noSaltOverloadEqualsEmptySalt() {
        // Coffer's derivations use the three-argument form: "no salt" must be RFC 5869's HashLen zeros.
        byte[] ikm = HEX.parseHex("0b".repeat(22));
        assertThat(Hkdf.sha256(ikm, new byte[0], 42)).isEqualTo(Hkdf.sha256(ikm, new byte[0], new byte[0], 42))
                .isEqualTo(Hkdf.sha256(ikm, new byte[32], new byte[0], 42));
    }

    @Test
    void outputIsAPrefixOfALongerOutput() {
        byte[] ikm = range(0, 64);
        byte[] info = "coffer/test".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] longer = Hkdf.sha256(ikm, info, 100);
        assertThat(longer).startsWith(Hkdf.sha256(ikm, info, 33));
        assertThat(Hkdf.sha256(ikm, info, 0)).isEmpty();
    }

    @Test
    void aKeptMacGivesTheSameKeysAndCanBeReused() throws Exception {
        // Case 3 (empty salt = no salt), then Coffer-sized outputs, all through one reused Mac.
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        byte[] out = new byte[44];
        byte[] prk = new byte[32];
        Hkdf.extract(mac, HEX.parseHex("0b".repeat(22)), prk);
        Hkdf.expand(mac, prk, new byte[0], out, 1, 42);
        assertThat(HEX.formatHex(out, 1, 43)).isEqualTo(
                "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8");
        byte[] ikm = range(0, 32);
        for (String label : new String[] {"coffer/xts", "coffer/sector"}) {
            byte[] info = label.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            for (int length : new int[] {0, 1, 32, 33, 64, 100}) {
                byte[] kept = new byte[length];
                Hkdf.extract(mac, ikm, prk);
                Hkdf.expand(mac, prk, info, kept, 0, length);
                assertThat(kept).as(label + " " + length).isEqualTo(Hkdf.sha256(ikm, info, length));
            }
        }
    }

    @Test
    void extractThenExpandIsTheRfcsTwoSteps() throws Exception {
        // Case 3's PRK and OKM; then one PRK expanded for Coffer's two labels equals the one-call form.
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        byte[] prk = new byte[32];
        Hkdf.extract(mac, HEX.parseHex("0b".repeat(22)), prk);
        assertThat(HEX.formatHex(prk)).isEqualTo("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04");
        byte[] okm = new byte[42];
        Hkdf.expand(mac, prk, new byte[0], okm, 0, 42);
        assertThat(HEX.formatHex(okm)).isEqualTo(
                "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8");
        byte[] ikm = range(0, 32);
        Hkdf.extract(mac, ikm, prk);
        for (String label : new String[] {"coffer/xts", "coffer/sector"}) {
            byte[] info = label.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            byte[] out = new byte[66];
            Hkdf.expand(mac, prk, info, out, 1, 64);
            assertThat(java.util.Arrays.copyOfRange(out, 1, 65)).as(label).isEqualTo(Hkdf.sha256(ikm, info, 64));
            assertThat(out[0]).isZero();
            assertThat(out[65]).isZero();
        }
    }

    @Test
    void extractWantsA32BytePrkAndExpandAnInRangeLength() throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> Hkdf.extract(mac, new byte[32], new byte[31]));
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> Hkdf.expand(mac, new byte[32], new byte[0], new byte[8192], 0, 255 * 32 + 1));
    }

    private static byte[] range(int from, int to) {
        byte[] b = new byte[to - from];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (from + i);
        }
        return b;
    }
}
