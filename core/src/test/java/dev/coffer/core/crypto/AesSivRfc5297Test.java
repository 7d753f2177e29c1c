package dev.coffer.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Known-answer tests of {@link AesSiv} against RFC 5297 Appendix A: A.1 (deterministic, one
 * associated-data component) and A.2 (nonce-based: two components and the nonce as a third).
 * Both use a 256-bit key, i.e. two AES-128 keys.
 */
class AesSivRfc5297Test {
    private static final HexFormat HEX = HexFormat.of();

    private static final byte[] A1_KEY = HEX.parseHex("fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
    private static final byte[] A1_AD = HEX.parseHex("101112131415161718191a1b1c1d1e1f2021222324252627");
    private static final byte[] A1_PLAINTEXT = HEX.parseHex("112233445566778899aabbccddee");
    private static final String A1_OUTPUT = "85632d07c6e8f37f950acd320a2ecc93" + "40c02b9690c4dc04daef7f6afe5c";

    private static final byte[] A2_KEY = HEX.parseHex("7f7e7d7c7b7a79787776757473727170404142434445464748494a4b4c4d4e4f");
    private static final byte[] A2_AD1 = HEX.parseHex(
            "00112233445566778899aabbccddeeffdeaddadadeaddadaffeeddccbbaa99887766554433221100");
    private static final byte[] A2_AD2 = HEX.parseHex("102030405060708090a0");
    private static final byte[] A2_NONCE = HEX.parseHex("09f911029d74e35bd84156c5635688c0");
    private static final byte[] A2_PLAINTEXT = HEX.parseHex(
            "7468697320697320736f6d6520706c61696e7465787420746f20656e6372797074207573696e67205349562d414553");
    private static final String A2_OUTPUT = "7bdb6e3b432667eb06f4d14bff2fbd0f"
            + "cb900f2fddbe404326601965c889bf17dba77ceb094fa663b7a3f748ba8af829ea64ad544a272e9c485b62a3fd5c0d";

    @Test
    void a1DeterministicEncryption() {
        AesSiv siv = new AesSiv(A1_KEY);
        assertThat(HEX.formatHex(siv.encrypt(A1_PLAINTEXT, A1_AD))).isEqualTo(A1_OUTPUT);
    }

    @Test
    void a1Decryption() throws AuthenticationFailedException {
        AesSiv siv = new AesSiv(A1_KEY);
        assertThat(siv.decrypt(HEX.parseHex(A1_OUTPUT), A1_AD)).isEqualTo(A1_PLAINTEXT);
    }

    @Test
    void a2NonceBasedEncryptionWithSeveralComponents() {
        AesSiv siv = new AesSiv(A2_KEY);
        // RFC 5297 3: the nonce is the last associated-data component, after AD1 and AD2.
        assertThat(HEX.formatHex(siv.encrypt(A2_PLAINTEXT, A2_AD1, A2_AD2, A2_NONCE))).isEqualTo(A2_OUTPUT);
    }

    @Test
    void a2Decryption() throws AuthenticationFailedException {
        AesSiv siv = new AesSiv(A2_KEY);
        assertThat(siv.decrypt(HEX.parseHex(A2_OUTPUT), A2_AD1, A2_AD2, A2_NONCE)).isEqualTo(A2_PLAINTEXT);
    }

    @Test
    void plaintextIsUtf8OfTheRfcSentence() {
        // Guards the hex above against a typo: A.2's plaintext is this sentence.
        assertThat(new String(A2_PLAINTEXT, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("this is some plaintext to encrypt using SIV-AES");
    }
}
