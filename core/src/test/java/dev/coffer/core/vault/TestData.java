package dev.coffer.core.vault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HexFormat;
import java.util.stream.Stream;

/** Locates shared/testdata and shared/data, reads vectors.json, copies vaults to a temp folder. */
final class TestData {
    static final String PASSPHRASE = "correct horse battery staple 1";

    private TestData() {}

    static Path testdata() {
        return dir("coffer.testdata", "../../shared/testdata");
    }

    static Path shareddata() {
        return dir("coffer.shareddata", "../../shared/data");
    }

    static JsonNode vectors() {
        try {
            return new ObjectMapper().readTree(testdata().resolve("vectors.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    /** A copy of {@code testdata/<relative>} inside {@code tempDir}: tests never open the originals. */
    static Path copyVault(String relative, Path tempDir) throws IOException {
        Path source = testdata().resolve(relative);
        Path target = tempDir.resolve(source.getFileName().toString());
        try (Stream<Path> all = Files.walk(source)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path t = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
        return target;
    }

    private static Path dir(String property, String fallback) {
        String configured = System.getProperty(property);
        Path p = configured != null ? Paths.get(configured) : Paths.get(fallback);
        return p.toAbsolutePath().normalize();
    }
}
