package dev.coffer.core.content;

import com.fasterxml.jackson.databind.JsonNode;
import dev.coffer.core.testing.SharedTestData;

/** This package's view of {@link SharedTestData}. */
final class TestData {
    private TestData() {}

    static JsonNode vectors() {
        return SharedTestData.vectors();
    }
}
