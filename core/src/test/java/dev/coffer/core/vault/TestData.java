package dev.coffer.core.vault;

import com.fasterxml.jackson.databind.JsonNode;
import dev.coffer.core.testing.SharedTestData;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HexFormat;

/** This package's view of {@link SharedTestData}. */
final class TestData {
    static final String PASSPHRASE = SharedTestData.PASSPHRASE;

    private TestData() {}

    static Path testdata() {
        return SharedTestData.testdata();
    }

    static Path shareddata() {
        return SharedTestData.shareddata();
    }

    static JsonNode vectors() {
        return SharedTestData.vectors();
    }

    static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    static Path copyVault(String relative, Path tempDir) throws IOException {
        return SharedTestData.copyVault(relative, tempDir);
    }
}
