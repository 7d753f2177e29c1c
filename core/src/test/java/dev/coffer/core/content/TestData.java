package dev.coffer.core.content;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;

/** Locates shared/testdata (system property coffer.testdata, set by the build). */
final class TestData {
    private TestData() {}

    static Path dir() {
        String p = System.getProperty("coffer.testdata");
        return p != null ? Path.of(p) : Path.of("../../shared/testdata");
    }

    static JsonNode vectors() throws IOException {
        return new ObjectMapper().readTree(dir().resolve("vectors.json").toFile());
    }
}
