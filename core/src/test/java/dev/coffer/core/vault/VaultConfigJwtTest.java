package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.coffer.core.crypto.MasterKey;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** vault.coffer against vectors.json, the header and claim rules of spec 2.2, and garbage input. */
class VaultConfigJwtTest {
    private static final JsonNode VECTOR = TestData.vectors().get("vaultConfig");
    private static final MasterKey M = MasterKey.of(TestData.hex(TestData.vectors().get("masterKey").get("M").asText()));
    private static final String HEADER = VECTOR.get("headerJson").asText();
    private static final String PAYLOAD = VECTOR.get("payloadJson").asText();
    private static final VaultConfig CONFIG =
            new VaultConfig(1, CipherCombo.SIV_XTSHMAC, 220, 4096, "0f8fad5b-d9cb-469f-a165-70867728950e");

    private static byte[] signed(String header, String payload) {
        byte[] configKey = M.derive("coffer/config", 32);
        return JwsCompact.signHs256(bytes(header), bytes(payload), configKey).compact().getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static VaultConfig open(byte[] stored) throws VaultFormatException {
        return VaultConfigJwt.parse(stored).verifiedConfig(M);
    }

    @Test
    void theWriterReproducesTheVector() throws Exception {
        assertThat(new String(VaultClaims.write(CONFIG), StandardCharsets.UTF_8)).isEqualTo(PAYLOAD);
        byte[] jwt = VaultConfigJwt.write(CONFIG, M);
        assertThat(new String(jwt, StandardCharsets.US_ASCII)).isEqualTo(VECTOR.get("jwt").asText());
        JwsCompact parts = JwsCompact.parse(jwt, "vault.coffer");
        assertThat(new String(parts.signingInput(), StandardCharsets.US_ASCII)).isEqualTo(VECTOR.get("signingInput").asText());
        assertThat(HexFormat.of().formatHex(JwsCompact.decode(parts.signature(), "sig")))
                .isEqualTo(VECTOR.get("signatureHex").asText());
        assertThat(new String(JwsCompact.decode(parts.header(), "h"), StandardCharsets.UTF_8)).isEqualTo(HEADER);
    }

    @Test
    void theVectorOpensWithItsKeyEvenWithWhitespaceAround() throws Exception {
        VaultConfigJwt jwt = VaultConfigJwt.parse(bytes(" \t\r\n" + VECTOR.get("jwt").asText() + "\r\n\n"));
        assertThat(jwt.masterkeyFileName()).isEqualTo("masterkey.coffer");
        assertThat(jwt.verifiedConfig(M)).isEqualTo(CONFIG);
    }

    @Test
    void aChangedPayloadOrAnotherKeyIsABadSignature() {
        String[] parts = VECTOR.get("jwt").asText().split("\\.");
        String otherPayload = JwsCompact.encode(bytes(PAYLOAD.replace("220", "221")));
        byte[] tampered = bytes(parts[0] + "." + otherPayload + "." + parts[2]);
        assertThatThrownBy(() -> open(tampered))
                .hasMessage("vault.coffer: bad signature - tampered with, or belongs to another key");
        byte[] other = new byte[64];
        Arrays.fill(other, (byte) 7);
        assertThatThrownBy(() -> VaultConfigJwt.parse(bytes(VECTOR.get("jwt").asText())).verifiedConfig(MasterKey.of(other)))
                .hasMessage("vault.coffer: bad signature - tampered with, or belongs to another key");
        byte[] noSignature = bytes(parts[0] + "." + parts[1] + ".");
        assertThatThrownBy(() -> open(noSignature)).hasMessageContaining("bad signature");
    }

    @Test
    void algMustBeHs256BeforeAnythingElse() {
        assertThatThrownBy(() -> VaultConfigJwt.parse(signed(HEADER.replace("HS256", "none"), PAYLOAD)))
                .hasMessage("vault.coffer: alg 'none' is not HS256 - refused");
        assertThatThrownBy(() -> VaultConfigJwt.parse(signed(HEADER.replace("HS256", "HS512"), PAYLOAD)))
                .hasMessage("vault.coffer: alg 'HS512' is not HS256 - refused");
        assertThatThrownBy(() -> VaultConfigJwt.parse(signed(HEADER.replace("\"HS256\"", "256"), PAYLOAD)))
                .hasMessage("vault.coffer: alg 256 is not HS256 - refused");
        assertThatThrownBy(() -> VaultConfigJwt.parse(signed(HEADER.replace("\"alg\"", "\"algo\""), PAYLOAD)))
                .hasMessage("vault.coffer: header has no 'alg'");
        String unsigned = JwsCompact.encode(bytes(HEADER.replace("HS256", "none"))) + "." + JwsCompact.encode(bytes(PAYLOAD)) + ".";
        assertThatThrownBy(() -> VaultConfigJwt.parse(bytes(unsigned))).hasMessage("vault.coffer: alg 'none' is not HS256 - refused");
    }

    @ParameterizedTest
    @ValueSource(strings = {"masterkeyfile:../masterkey.coffer", "masterkeyfile:/etc/passwd", "masterkeyfile:.",
        "masterkeyfile:..", "masterkeyfile:a..b", "masterkeyfile:d/masterkey.coffer", "masterkeyfile:a\\\\b",
        "masterkeyfile:", "masterkeyfile:C:x", "masterkeyfile:masterkey (1).coffer", "masterkeyfile:tab\\tx",
        "file:masterkey.coffer", "MASTERKEYFILE:masterkey.coffer", "masterkey.coffer"})
    void kidMustNameAPlainFileInTheRoot(String kid) {
        String header = HEADER.replace("masterkeyfile:masterkey.coffer", kid);
        assertThatThrownBy(() -> VaultConfigJwt.parse(signed(header, PAYLOAD)))
                .isExactlyInstanceOf(VaultFormatException.class)
                .hasMessageEndingWith(" does not name a plain file in the vault root");
    }

    @Test
    void kidMayNameAnotherPlainFileAndMustBePresent() throws Exception {
        String header = HEADER.replace("masterkey.coffer", "masterkey-2.coffer");
        assertThat(VaultConfigJwt.parse(signed(header, PAYLOAD)).masterkeyFileName()).isEqualTo("masterkey-2.coffer");
        assertThatThrownBy(() -> VaultConfigJwt.parse(signed("{\"alg\":\"HS256\",\"typ\":\"JWT\"}", PAYLOAD)))
                .hasMessage("vault.coffer: header has no 'kid'");
        assertThatThrownBy(() -> VaultConfigJwt.parse(signed("{\"alg\":\"HS256\",\"kid\":7}", PAYLOAD)))
                .hasMessage("vault.coffer: kid 7 does not name a plain file in the vault root");
    }

    @Test
    void duplicateKeysAreRefusedInHeaderAndPayload() {
        assertThatThrownBy(() -> VaultConfigJwt.parse(signed(HEADER.replace("{", "{\"alg\":\"HS256\","), PAYLOAD)))
                .hasMessage("vault.coffer: header: duplicate key 'alg'");
        assertThatThrownBy(() -> open(signed(HEADER, PAYLOAD.replace("{", "{\"format\":1,"))))
                .hasMessage("vault.coffer: payload: duplicate key 'format'");
    }

    @Test
    void claimsAreCheckedAfterTheSignatureWithMessagesNamingTheValue() {
        assertThatThrownBy(() -> open(signed(HEADER, PAYLOAD.replace("\"format\":1", "\"format\":2"))))
                .hasMessage("vault.coffer: unknown format 2");
        assertThatThrownBy(() -> open(signed(HEADER, PAYLOAD.replace("SIV_XTSHMAC", "SIV_GCM"))))
                .hasMessage("vault.coffer: unknown cipherCombo 'SIV_GCM'");
        assertThatThrownBy(() -> open(signed(HEADER, PAYLOAD.replace("\"SIV_XTSHMAC\"", "1"))))
                .hasMessage("vault.coffer: unknown cipherCombo 1");
        assertThatThrownBy(() -> open(signed(HEADER, PAYLOAD.replace("4096", "8192"))))
                .hasMessage("vault.coffer: sectorSize 8192 (format 1 allows only 4096)");
        assertThatThrownBy(() -> open(signed(HEADER, PAYLOAD.replace("220", "35"))))
                .hasMessage("vault.coffer: shorteningThreshold 35 outside 36..220");
        assertThatThrownBy(() -> open(signed(HEADER, PAYLOAD.replace("220", "221"))))
                .hasMessage("vault.coffer: shorteningThreshold 221 outside 36..220");
        assertThatThrownBy(() -> open(signed(HEADER, PAYLOAD.replace("220", "220.0"))))
                .hasMessageContaining("'shorteningThreshold' = 220.0 is not a JSON integer");
        assertThatThrownBy(() -> open(signed(HEADER, PAYLOAD.replace("\"jti\"", "\"id\""))))
                .hasMessage("vault.coffer: claim 'jti' missing or not a non-empty string");
    }

    @Test
    void acceptsTheBoundariesAndUnknownClaims() throws Exception {
        assertThat(open(signed(HEADER, PAYLOAD.replace("220", "36"))).shorteningThreshold()).isEqualTo(36);
        assertThat(open(signed(HEADER, PAYLOAD.replace("SIV_XTSHMAC", "SIV_XTS"))).cipherCombo()).isEqualTo(CipherCombo.SIV_XTS);
        assertThat(open(signed(HEADER.replace("}", ",\"x5u\":[1]}"), PAYLOAD.replace("}", ",\"future\":{\"a\":1}}"))))
                .isEqualTo(CONFIG);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "abc", "a.b", "a.b.c.d", "a..c", ".b.c", "a=.b.c", "eyJ+.eyJ.x", "a.b.c\u0000"})
    void malformedTokensAreRefused(String token) {
        assertThatThrownBy(() -> VaultConfigJwt.parse(bytes(token)))
                .isExactlyInstanceOf(VaultFormatException.class)
                .hasMessageStartingWith("vault.coffer: ");
    }

    @Test
    void truncationsAndRandomBytesOnlyGiveFormatExceptions() {
        byte[] valid = bytes(VECTOR.get("jwt").asText());
        for (int len = 0; len < valid.length; len++) {
            try {
                open(Arrays.copyOf(valid, len));
            } catch (VaultFormatException expected) {
                assertThat(expected.getMessage()).startsWith("vault.coffer: ");
            }
        }
        Random random = new Random(3);
        for (int i = 0; i < 2000; i++) {
            byte[] input = i % 2 == 0 ? new byte[random.nextInt(300)] : valid.clone();
            if (i % 2 == 0) {
                random.nextBytes(input);
            } else {
                input[random.nextInt(input.length)] = (byte) random.nextInt(128);
            }
            try {
                open(input);
            } catch (VaultFormatException expected) {
                assertThat(expected.getMessage()).startsWith("vault.coffer: ");
            }
        }
    }
}
