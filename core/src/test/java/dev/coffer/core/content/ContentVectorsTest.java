package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.crypto.AuthenticationFailedException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.bouncycastle.crypto.digests.SHAKEDigest;
import org.junit.jupiter.api.Test;

/** The content encoding of spec 5, byte for byte against vectors.json (independent implementation). */
class ContentVectorsTest {
    private static final HexFormat HEX = HexFormat.of();

    static byte[] shake(String input, int length) {
        SHAKEDigest d = new SHAKEDigest(256);
        byte[] in = input.getBytes(StandardCharsets.UTF_8);
        d.update(in, 0, in.length);
        byte[] out = new byte[length];
        d.doFinal(out, 0, length);
        return out;
    }

    /** Yields the vector's nonces (unit 0, 1, 2, ...) in the order the cryptor draws them. */
    static SecureRandom nonces(long size) {
        return new SecureRandom() {
            private static final long serialVersionUID = 1L;
            private int next;

            @Override
            public void nextBytes(byte[] bytes) {
                for (int off = 0; off < bytes.length; off += 16) {
                    System.arraycopy(shake("coffer-vector-nonce:" + size + ":" + next++, 16), 0, bytes, off, 16);
                }
            }
        };
    }

    @Test
    void everyContentVectorIsReproducedByteForByte() throws Exception {
        JsonNode v = TestData.vectors();
        AesSiv siv = new AesSiv(HEX.parseHex(v.get("derivedKeys").get("sivKey").asText()));
        byte[] fileSecret = HEX.parseHex(v.get("fileHeader").get("fileSecret").asText());
        byte[] header = new FileHeaders(siv, new SecureRandom()).seal(fileSecret);
        assertThat(HEX.formatHex(header)).isEqualTo(v.get("fileHeader").get("header").asText());
        int checked = 0;
        for (JsonNode c : v.get("content")) {
            boolean auth = c.get("combo").asText().equals("SIV_XTSHMAC");
            int size = c.get("size").asInt();
            SectorLayout layout = new SectorLayout(auth ? 32 : 0);
            byte[] plain = shake("coffer-vector:" + size, size);
            byte[] ct = new byte[(int) layout.ciphertextLength(size)];
            if (size > 0) {
                System.arraycopy(header, 0, ct, 0, 48);
                UnitCryptor u = new UnitCryptor(fileSecret, auth, nonces(size));
                long units = layout.unitCount(size);
                for (long i = 0; i < units; i++) {
                    u.encrypt(i, i == units - 1, plain, (int) SectorLayout.unitStart(i), layout.unitLength(i, size),
                            ct, (int) layout.storedUnitOffset(i));
                }
            }
            assertThat(ct.length).as("%s %d length", c.get("combo"), size).isEqualTo(c.get("ciphertextLength").asInt());
            assertThat(HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(ct)))
                    .as("%s %d", c.get("combo"), size).isEqualTo(c.get("ciphertextSha256").asText());
            checked++;
        }
        assertThat(checked).isEqualTo(26);
    }

    @Test
    void unitVectorsEncryptExactlyDecryptAndTheLastFlagIsEnforced() throws Exception {
        JsonNode v = TestData.vectors();
        byte[] fileSecret = HEX.parseHex(v.get("fileHeader").get("fileSecret").asText());
        for (JsonNode u : v.get("units")) {
            boolean auth = u.get("combo").asText().equals("SIV_XTSHMAC");
            int len = u.get("length").asInt();
            long index = u.get("index").asLong();
            boolean last = u.get("last").asBoolean();
            byte[] plain = u.has("plaintextHex") ? HEX.parseHex(u.get("plaintextHex").asText())
                    : shake(u.get("plaintextRule").asText(), len);
            byte[] nonce = u.has("nonce") ? HEX.parseHex(u.get("nonce").asText()) : new byte[16];
            UnitCryptor c = new UnitCryptor(fileSecret, auth, fixed(nonce));
            byte[] stored = new byte[len + c.overhead()];
            c.encrypt(index, last, plain, 0, len, stored, 0);
            assertThat(HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(stored)))
                    .as("%s unit %d len %d", u.get("combo"), index, len).isEqualTo(u.get("storedSha256").asText());
            byte[] out = new byte[stored.length];
            c.decrypt(index, last, stored, 0, stored.length, out, 0);
            assertThat(HEX.formatHex(out, 0, len)).isEqualTo(HEX.formatHex(plain));
            if (auth && !last) {
                // A unit tagged last = 0 must not pass as the file's last unit.
                assertThatThrownBy(() -> c.decrypt(index, true, stored, 0, stored.length, new byte[stored.length], 0))
                        .isInstanceOf(AuthenticationFailedException.class);
            }
            if (auth && last) {
                // A unit tagged last = 1 is accepted in the middle of a file (crash mid-append) ...
                c.decrypt(index, false, stored, 0, stored.length, new byte[stored.length], 0);
                // ... but not under another index.
                assertThatThrownBy(() -> c.decrypt(index + 1, true, stored, 0, stored.length, new byte[stored.length], 0))
                        .isInstanceOf(AuthenticationFailedException.class);
            }
        }
    }

    private static SecureRandom fixed(byte[] nonce) {
        return new SecureRandom() {
            private static final long serialVersionUID = 1L;

            @Override
            public void nextBytes(byte[] bytes) {
                for (int off = 0; off < bytes.length; off += 16) {
                    System.arraycopy(nonce, 0, bytes, off, 16);
                }
            }
        };
    }
}
