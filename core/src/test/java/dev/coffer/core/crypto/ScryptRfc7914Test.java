package dev.coffer.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Known-answer tests of {@link Scrypt} against RFC 7914 section 12 (the N = 2^20 vector is left out:
 * it needs 1 GiB of memory).
 */
class ScryptRfc7914Test {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void emptyPasswordAndSaltN16() {
        assertThat(HEX.formatHex(Scrypt.derive(new byte[0], new byte[0], 16, 1, 1, 64))).isEqualTo(
                "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
                + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906");
    }

    @Test
    void passwordNaClN1024R8P16() {
        assertThat(HEX.formatHex(Scrypt.derive(ascii("password"), ascii("NaCl"), 1024, 8, 16, 64))).isEqualTo(
                "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
                + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640");
    }

    @Test
    void pleaseletmeinN16384R8P1() {
        assertThat(HEX.formatHex(Scrypt.derive(ascii("pleaseletmein"), ascii("SodiumChloride"), 16384, 8, 1, 64)))
                .isEqualTo("7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2"
                        + "d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887");
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
