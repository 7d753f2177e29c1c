package dev.coffer.core.crypto;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

/**
 * Loads {@code vectors.json}, the known-answer vectors of the independent reference implementation
 * (shared/testdata/README.md). The folder comes from the system property {@code coffer.testdata}
 * (surefire sets it); without it, {@code ../../shared/testdata} relative to the core module.
 */
final class TestVectors {
    private static final HexFormat HEX = HexFormat.of();

    private TestVectors() {}

    static JsonNode root() {
        return dev.coffer.core.testing.SharedTestData.vectors();
    }

    static Path folder() {
        return dev.coffer.core.testing.SharedTestData.testdata();
    }

    /** The hex string at {@code field} of {@code node}, decoded. */
    static byte[] hex(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("no hex string '" + field + "' in " + node);
        }
        return HEX.parseHex(value.asText());
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("no string '" + field + "' in " + node);
        }
        return value.asText();
    }
}
