package dev.coffer.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.SHAKEDigest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Single data units of spec 5.3/5.4 against vectors.json's {@code units}: the XTS ciphertext (or the
 * tiny-unit keystream) under the file's xtsKey, and in {@code SIV_XTSHMAC} the truncated HMAC tag
 * over {@code BE64(i) || last || nonce || C} and the stored bytes {@code nonce || C || tag}.
 */
class UnitVectorsTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final JsonNode HEADER = TestVectors.root().get("fileHeader");

    static Stream<Arguments> units() {
        return StreamSupport.stream(TestVectors.root().get("units").spliterator(), false)
                .map(u -> Arguments.of(u.get("combo").asText() + " unit " + u.get("index").asInt() + ", "
                        + u.get("length").asInt() + " bytes, last=" + u.get("last").asBoolean(), u));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("units")
    void ciphertext(String name, JsonNode unit) {
        byte[] p = plaintext(unit);
        byte[] c = encrypt(unit, p);
        if (unit.has("cHex")) {
            assertThat(HEX.formatHex(c)).isEqualTo(TestVectors.text(unit, "cHex"));
        } else {
            assertThat(HEX.formatHex(c, 0, 32)).isEqualTo(TestVectors.text(unit, "cFirst32Hex"));
            assertThat(HEX.formatHex(sha256(c))).isEqualTo(TestVectors.text(unit, "cSha256"));
        }
        assertThat(decrypt(unit, c)).isEqualTo(p);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("units")
    void storedBytes(String name, JsonNode unit) throws Exception {
        byte[] c = encrypt(unit, plaintext(unit));
        byte[] stored;
        if (unit.get("combo").asText().equals("SIV_XTSHMAC")) {
            byte[] nonce = TestVectors.hex(unit, "nonce");
            byte[] prefix = ByteBuffer.allocate(8 + 1 + 16).putLong(unit.get("index").asLong())
                    .put((byte) (unit.get("last").asBoolean() ? 1 : 0)).put(nonce).array();
            assertThat(HEX.formatHex(prefix)).isEqualTo(TestVectors.text(unit, "tagInputPrefixHex"));
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(TestVectors.hex(HEADER, "sectorKey"), "HmacSHA256"));
            hmac.update(prefix);
            byte[] tag = Arrays.copyOf(hmac.doFinal(c), 16);
            assertThat(HEX.formatHex(tag)).isEqualTo(TestVectors.text(unit, "tagHex"));
            stored = ByteBuffer.allocate(16 + c.length + 16).put(nonce).put(c).put(tag).array();
        } else {
            stored = c;
        }
        if (unit.has("storedHex")) {
            assertThat(HEX.formatHex(stored)).isEqualTo(TestVectors.text(unit, "storedHex"));
        }
        assertThat(HEX.formatHex(sha256(stored))).isEqualTo(TestVectors.text(unit, "storedSha256"));
    }

    private static AesXts xts() {
        byte[] xtsKey = Hkdf.sha256(TestVectors.hex(HEADER, "fileSecret"),
                "coffer/xts".getBytes(StandardCharsets.US_ASCII), 64);
        assertThat(xtsKey).isEqualTo(TestVectors.hex(HEADER, "xtsKey"));
        return new AesXts(xtsKey);
    }

    private static byte[] encrypt(JsonNode unit, byte[] p) {
        byte[] tweak = TestVectors.hex(unit, "tweak");
        byte[] c = new byte[p.length];
        if (p.length < 16) {
            byte[] keystream = new byte[16];
            xts().tinyKeystream(tweak, 0, keystream, 0);
            assertThat(HEX.formatHex(keystream)).isEqualTo(TestVectors.text(unit, "tinyKeystream"));
            Bytes.xor(p, 0, keystream, 0, c, 0, p.length);
        } else {
            xts().encrypt(tweak, 0, p, 0, c, 0, p.length);
        }
        return c;
    }

    private static byte[] decrypt(JsonNode unit, byte[] c) {
        byte[] tweak = TestVectors.hex(unit, "tweak");
        byte[] p = new byte[c.length];
        if (c.length < 16) {
            byte[] keystream = new byte[16];
            xts().tinyKeystream(tweak, 0, keystream, 0);
            Bytes.xor(c, 0, keystream, 0, p, 0, c.length);
        } else {
            xts().decrypt(tweak, 0, c, 0, p, 0, c.length);
        }
        return p;
    }

    /** {@code plaintextHex}, or SHAKE-256 of {@code plaintextRule} cut to {@code length} bytes. */
    private static byte[] plaintext(JsonNode unit) {
        int length = unit.get("length").asInt();
        byte[] p;
        if (unit.has("plaintextHex")) {
            p = TestVectors.hex(unit, "plaintextHex");
        } else {
            byte[] rule = TestVectors.text(unit, "plaintextRule").getBytes(StandardCharsets.UTF_8);
            SHAKEDigest shake = new SHAKEDigest(256);
            shake.update(rule, 0, rule.length);
            p = new byte[length];
            shake.doFinal(p, 0, length);
        }
        assertThat(p).hasSize(length);
        return p;
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
