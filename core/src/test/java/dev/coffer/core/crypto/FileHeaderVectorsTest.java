package dev.coffer.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The file header of spec 5.1 against vectors.json's {@code fileHeader}: AES-SIV of the fileSecret
 * with one component "coffer/file-header/v1", and the per-file keys xtsKey and sectorKey (HKDF).
 */
class FileHeaderVectorsTest {
    private static final JsonNode HEADER = TestVectors.root().get("fileHeader");

    @Test
    void headerIsSivOfTheFileSecret() throws AuthenticationFailedException {
        AesSiv siv = new AesSiv(TestVectors.hex(TestVectors.root().get("derivedKeys"), "sivKey"));
        byte[] ad = TestVectors.text(HEADER, "associatedData").getBytes(StandardCharsets.US_ASCII);
        byte[] fileSecret = TestVectors.hex(HEADER, "fileSecret");

        byte[] header = siv.encrypt(fileSecret, ad);
        assertThat(header).hasSize(48).isEqualTo(TestVectors.hex(HEADER, "header"));
        assertThat(siv.decrypt(header, ad)).isEqualTo(fileSecret);
        assertThat(TestVectors.text(HEADER, "associatedData")).isEqualTo("coffer/file-header/v1");
    }

    @Test
    void xtsKeyAndSectorKey() {
        byte[] fileSecret = TestVectors.hex(HEADER, "fileSecret");
        assertThat(Hkdf.sha256(fileSecret, ascii(TestVectors.text(HEADER, "xtsInfo")), 64))
                .isEqualTo(TestVectors.hex(HEADER, "xtsKey"));
        assertThat(Hkdf.sha256(fileSecret, ascii(TestVectors.text(HEADER, "sectorInfo")), 32))
                .isEqualTo(TestVectors.hex(HEADER, "sectorKey"));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
