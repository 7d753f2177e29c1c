package dev.coffer.core.names;

import com.fasterxml.jackson.databind.JsonNode;
import dev.coffer.core.testing.SharedTestData;
import java.nio.file.Path;

/** This package's view of {@link SharedTestData}. */
final class TestData {
    private TestData() {}

    static Path dir() {
        return SharedTestData.testdata();
    }

    static JsonNode json(String fileName) {
        return SharedTestData.json(fileName);
    }

    static JsonNode vectors() {
        return SharedTestData.vectors();
    }
}
