package dev.coffer.core.names;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Locates {@code shared/testdata} (system property {@code coffer.testdata}, else {@code ../../shared/testdata}) and reads its JSON files. */
final class TestData {
    private TestData() {}

    static Path dir() {
        String prop = System.getProperty("coffer.testdata");
        Path dir = prop != null && !prop.isBlank() ? Path.of(prop) : Path.of("../../shared/testdata");
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("test data not found at " + dir.toAbsolutePath() + " (set -Dcoffer.testdata)");
        }
        return dir;
    }

    static JsonNode json(String fileName) {
        try {
            return new ObjectMapper().readTree(dir().resolve(fileName).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode vectors() {
        return json("vectors.json");
    }
}
