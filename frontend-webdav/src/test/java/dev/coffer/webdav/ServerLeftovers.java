package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Test helper: what of the server's own is in a served root. While a server runs, its staging folder
 * ({@link Staging}) may be there, made at the first upload or copy and kept; once every request has
 * ended it must be empty, and nothing else of the server's may be in the root.
 */
final class ServerLeftovers {
    private ServerLeftovers() {}

    /** Nothing of the server's in {@code root} but an empty staging folder. */
    static void assertNoneIn(Path root) throws IOException {
        try (Stream<Path> s = Files.list(root)) {
            assertThat(s.map(p -> p.getFileName().toString()))
                    .allMatch(n -> !n.startsWith(DeadProperties.RESERVED_PREFIX) || n.equals(Staging.FOLDER));
        }
        Path staging = root.resolve(Staging.FOLDER);
        if (Files.exists(staging)) {
            try (Stream<Path> s = Files.list(staging)) {
                assertThat(s.map(p -> p.getFileName().toString())).as("left in the staging folder").isEmpty();
            }
        }
    }

    /** Whether something is staged right now (an upload or a copy in progress). */
    static boolean anyStaged(Path root) throws IOException {
        Path staging = root.resolve(Staging.FOLDER);
        if (!Files.isDirectory(staging)) {
            return false;
        }
        try (Stream<Path> s = Files.list(staging)) {
            return s.findAny().isPresent();
        }
    }
}
