package dev.coffer.core.vault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Relative path -> content (hex) of every file under a folder: to prove an operation wrote nothing. */
final class TreeSnapshot {
    private TreeSnapshot() {}

    static Map<String, String> of(Path root) throws IOException {
        Map<String, String> snapshot = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                String key = root.relativize(p).toString();
                snapshot.put(key, Files.isDirectory(p) ? "/" : HexFormat.of().formatHex(Files.readAllBytes(p)));
            }
        }
        return snapshot;
    }
}
