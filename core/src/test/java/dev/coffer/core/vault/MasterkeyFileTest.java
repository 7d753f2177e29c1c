package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.coffer.core.crypto.KeyWrap;
import dev.coffer.core.crypto.MasterKey;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** masterkey.coffer against vectors.json, every field rule of spec 2.1, and garbage input. */
class MasterkeyFileTest {
    private static final JsonNode VECTORS = TestData.vectors();
    private static final byte[] PASSPHRASE = TestData.PASSPHRASE.getBytes(StandardCharsets.US_ASCII);
    private static final String VALID_TEXT = VECTORS.get("masterkeyFileText").asText();
    private static final byte[] M = TestData.hex(VECTORS.get("masterKey").get("M").asText());

    @Test
    void theVectorFileParsesAndUnwrapsToM() throws Exception {
        MasterkeyFile file = MasterkeyFile.parse(VALID_TEXT.getBytes(StandardCharsets.UTF_8), "masterkey.coffer");
        assertThat(file.params()).isEqualTo(new ScryptParams(16384, 8, 1));
        MasterKey key = file.unwrap(PASSPHRASE, Kdf.SCRYPT);
        assertThat(key.copyBytes()).isEqualTo(M);
        assertThat(VECTORS.get("masterkeyFile").get("masterKey").asText())
                .isEqualTo(Base64.getEncoder().encodeToString(TestData.hex(VECTORS.get("keyWrap").get("wrapped").asText())));
    }

    @Test
    void theWriterReproducesTheVectorFileByteForByte() {
        JsonNode scrypt = VECTORS.get("scrypt");
        byte[] salt = TestData.hex(scrypt.get("salt").asText());
        MasterkeyFile file = MasterkeyFile.wrap(MasterKey.of(M), PASSPHRASE, new ScryptParams(16384, 8, 1),
                new FixedRandom(salt), Kdf.SCRYPT);
        assertThat(new String(file.toBytes(), StandardCharsets.UTF_8)).isEqualTo(VALID_TEXT);
    }

    @Test
    void kekAndWrapMatchTheVectors() {
        JsonNode scrypt = VECTORS.get("scrypt");
        byte[] kek = Kdf.SCRYPT.kek(scrypt.get("passphrase").asText().getBytes(StandardCharsets.UTF_8),
                TestData.hex(scrypt.get("salt").asText()),
                new ScryptParams(scrypt.get("N").asLong(), scrypt.get("r").asLong(), scrypt.get("p").asLong()));
        assertThat(kek).isEqualTo(TestData.hex(scrypt.get("kek").asText()));
        JsonNode wrap = VECTORS.get("keyWrap");
        assertThat(KeyWrap.wrap(kek, TestData.hex(wrap.get("plaintext").asText())))
                .isEqualTo(TestData.hex(wrap.get("wrapped").asText()));
    }

    @Test
    void aWrongPassphraseIsInvalidPassphraseException() throws Exception {
        MasterkeyFile file = MasterkeyFile.parse(VALID_TEXT.getBytes(StandardCharsets.UTF_8), "masterkey.coffer");
        assertThatThrownBy(() -> file.unwrap("correct horse battery staple 2".getBytes(StandardCharsets.US_ASCII), Kdf.SCRYPT))
                .isExactlyInstanceOf(InvalidPassphraseException.class)
                .hasMessage("wrong passphrase");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"version\": 1|\"version\": 2|unknown version 2",
        "\"version\": 1|\"version\": \"1\"|field 'version' = \"1\" is not a JSON integer (no fraction, no exponent, not a boolean)",
        "\"version\": 1,|\"version\": 1, \"version\": 1,|duplicate key 'version'",
        "\"scryptCostParam\": 16384|\"scryptCostParam\": 16384.0|field 'scryptCostParam' = 16384.0 is not a JSON integer (no fraction, no exponent, not a boolean)",
        "\"scryptCostParam\": 16384|\"scryptCostParam\": 1.6384e4|field 'scryptCostParam' = 16384.0 is not a JSON integer (no fraction, no exponent, not a boolean)",
        "\"scryptParallelism\": 1|\"scryptParallelism\": true|field 'scryptParallelism' = true is not a JSON integer (no fraction, no exponent, not a boolean)",
        "\"scryptBlockSize\": 8|\"scryptBlockSize\": 99999999999999999999|field 'scryptBlockSize' = 99999999999999999999 is out of range",
        "\"scryptCostParam\": 16384|\"scryptCostParam\": 1073741824|scrypt N*r = 8589934592 exceeds 2^23 (more than 1 GiB of memory)",
        "\"scryptSalt\": \"QEFCQ0RFRkdISUpLTE1OTw==\"|\"scryptSalt\": \"AAAAAA==\"|scryptSalt is 4 bytes (8 to 64 allowed)",
        "\"scryptSalt\": \"QEFCQ0RFRkdISUpLTE1OTw==\"|\"scryptSalt\": 5|field 'scryptSalt' missing or not a Base64 string",
        "\"scryptSalt\": \"QEFCQ0RFRkdISUpLTE1OTw==\"|\"scryptSalt\": \"not base64!\"|field 'scryptSalt' missing or not a Base64 string",
        "\"masterKey\": \"+6|\"masterKey\": \"-_|field 'masterKey' missing or not a Base64 string",
        "\"masterKey\": \"+6|\"masterKeyX\": \"+6|field 'masterKey' missing or not a Base64 string",
    })
    void refusesBrokenFields(String from, String to, String message) {
        String text = VALID_TEXT.replace(from, to);
        assertThat(text).isNotEqualTo(VALID_TEXT);
        assertThatThrownBy(() -> MasterkeyFile.parse(text.getBytes(StandardCharsets.UTF_8), "masterkey.coffer"))
                .isExactlyInstanceOf(VaultFormatException.class)
                .hasMessage("masterkey.coffer: " + message);
    }

    @Test
    void refusesAWrappedKeyOfTheWrongLength() {
        String text = VALID_TEXT.replaceAll("\"masterKey\": \"[^\"]*\"",
                "\"masterKey\": \"" + Base64.getEncoder().encodeToString(new byte[40]) + "\"");
        assertThatThrownBy(() -> MasterkeyFile.parse(text.getBytes(StandardCharsets.UTF_8), "masterkey (1).coffer"))
                .hasMessage("masterkey (1).coffer: masterKey is 40 bytes, a wrapped 64-byte key is 72");
    }

    @Test
    void everyTruncationIsRefusedAsAFormatProblem() {
        byte[] valid = VALID_TEXT.getBytes(StandardCharsets.UTF_8);
        for (int len = 0; len < valid.length - 2; len++) {
            byte[] cut = Arrays.copyOf(valid, len);
            assertThatThrownBy(() -> MasterkeyFile.parse(cut, "masterkey.coffer"))
                    .isExactlyInstanceOf(VaultFormatException.class)
                    .hasMessageStartingWith("masterkey.coffer: ");
        }
    }

    @Test
    void randomBytesAndMutationsOnlyGiveFormatExceptions() {
        Random random = new Random(7);
        byte[] valid = VALID_TEXT.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 3000; i++) {
            byte[] input;
            if (i % 2 == 0) {
                input = new byte[random.nextInt(300)];
                random.nextBytes(input);
            } else {
                input = valid.clone();
                input[random.nextInt(input.length)] = (byte) random.nextInt(256);
            }
            try {
                MasterkeyFile.parse(input, "masterkey.coffer");
            } catch (VaultFormatException expected) {
                assertThat(expected.getMessage()).startsWith("masterkey.coffer: ");
            }
        }
    }
}
