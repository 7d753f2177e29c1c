package dev.coffer.app.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The independent implementation's vaults in shared/testdata (system property {@code coffer.testdata}),
 * copied to a temporary folder before use: opening one may write to it (spec 6).
 */
final class SampleVaults {
    static final String PASSPHRASE = "correct horse battery staple 1";

    private SampleVaults() {}

    static Path testdata() {
        String dir = System.getProperty("coffer.testdata");
        if (dir == null) {
            throw new IllegalStateException("system property coffer.testdata is not set (see the parent pom)");
        }
        return Path.of(dir);
    }

    /** A writable copy of {@code testdata/name} in {@code tmp}. */
    static Path copy(String name, Path tmp) throws IOException {
        Path from = testdata().resolve(name);
        Path to = tmp.resolve(name);
        List<Path> all;
        try (Stream<Path> s = Files.walk(from)) {
            all = s.toList();
        }
        for (Path p : all) {
            Path target = to.resolve(from.relativize(p).toString());
            if (Files.isDirectory(p)) {
                Files.createDirectories(target);
            } else {
                Files.copy(p, target);
            }
        }
        return to;
    }
}
