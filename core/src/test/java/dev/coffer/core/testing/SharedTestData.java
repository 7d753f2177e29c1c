package dev.coffer.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * The one locator of {@code shared/testdata} and {@code shared/data} (system properties
 * {@code coffer.testdata} / {@code coffer.shareddata}, set by the build; else beside the clone).
 * Fails loudly when the data is missing: no test may pass by skipping.
 */
public final class SharedTestData {
    public static final String PASSPHRASE = "correct horse battery staple 1";
    private static JsonNode vectors;

    private SharedTestData() {}

    public static Path testdata() {
        return dir("coffer.testdata", "../../shared/testdata");
    }

    public static Path shareddata() {
        return dir("coffer.shareddata", "../../shared/data");
    }

    public static JsonNode json(String fileName) {
        try {
            return new ObjectMapper().readTree(testdata().resolve(fileName).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static synchronized JsonNode vectors() {
        if (vectors == null) {
            vectors = json("vectors.json");
        }
        return vectors;
    }

    /** A writable copy of {@code testdata/<relative>} inside {@code tempDir}: tests never open the originals. */
    public static Path copyVault(String relative, Path tempDir) throws IOException {
        Path source = testdata().resolve(relative);
        Path target = tempDir.resolve(source.getFileName().toString());
        try (Stream<Path> all = Files.walk(source)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path t = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
                }
                t.toFile().setWritable(true);
            }
        }
        return target;
    }

    private static Path dir(String property, String fallback) {
        String configured = System.getProperty(property);
        Path p = (configured != null && !configured.isBlank() ? Path.of(configured) : Path.of(fallback)).toAbsolutePath().normalize();
        if (!Files.isDirectory(p)) {
            throw new IllegalStateException("shared test data not found at " + p + " (set -D" + property + ")");
        }
        return p;
    }
}
