package dev.coffer.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * The key layer against vectors.json: derived keys of M = 00..3f (spec 2.3), the scrypt KEK and the
 * RFC 3394 wrap of M (spec 2.1), and the HS256 signature that configKey puts on vault.coffer (2.2).
 */
class VaultKeyVectorsTest {
    private static final HexFormat HEX = HexFormat.of();

    private static MasterKey masterKey() {
        return MasterKey.of(TestVectors.hex(TestVectors.root().get("masterKey"), "M"));
    }

    @Test
    void derivedKeys() {
        JsonNode d = TestVectors.root().get("derivedKeys");
        MasterKey m = masterKey();
        assertThat(m.derive(TestVectors.text(d, "sivInfo"), 64)).isEqualTo(TestVectors.hex(d, "sivKey"));
        assertThat(m.derive(TestVectors.text(d, "configInfo"), 32)).isEqualTo(TestVectors.hex(d, "configKey"));
        assertThat(TestVectors.text(d, "sivInfo")).isEqualTo("coffer/siv");
        assertThat(TestVectors.text(d, "configInfo")).isEqualTo("coffer/config");
    }

    @Test
    void scryptKek() {
        JsonNode s = TestVectors.root().get("scrypt");
        byte[] kek = Scrypt.derive(TestVectors.text(s, "passphrase").getBytes(StandardCharsets.UTF_8),
                TestVectors.hex(s, "salt"), s.get("N").asInt(), s.get("r").asInt(), s.get("p").asInt(), 32);
        assertThat(kek).isEqualTo(TestVectors.hex(s, "kek"));
    }

    @Test
    void keyWrapOfTheMasterKey() throws AuthenticationFailedException {
        JsonNode k = TestVectors.root().get("keyWrap");
        byte[] kek = TestVectors.hex(k, "kek");
        byte[] wrapped = KeyWrap.wrap(kek, masterKey().copyBytes());
        assertThat(wrapped).hasSize(72).isEqualTo(TestVectors.hex(k, "wrapped"));
        assertThat(KeyWrap.unwrap(kek, wrapped)).isEqualTo(TestVectors.hex(k, "plaintext"));
        // The masterkey file stores the same 72 bytes in Base64.
        String stored = TestVectors.text(TestVectors.root().get("masterkeyFile"), "masterKey");
        assertThat(Base64.getDecoder().decode(stored)).isEqualTo(wrapped);
    }

    @Test
    void configKeySignsTheVaultConfig() throws Exception {
        JsonNode v = TestVectors.root().get("vaultConfig");
        byte[] configKey = masterKey().derive("coffer/config", 32);
        Mac hmac = Mac.getInstance("HmacSHA256");
        hmac.init(new SecretKeySpec(configKey, "HmacSHA256"));
        byte[] signature = hmac.doFinal(TestVectors.text(v, "signingInput").getBytes(StandardCharsets.US_ASCII));
        assertThat(HEX.formatHex(signature)).isEqualTo(TestVectors.text(v, "signatureHex"));
    }
}
