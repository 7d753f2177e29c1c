package dev.coffer.core.health;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Every path under a folder with a hash of its bytes ("dir" for folders): to prove that nothing changed. */
final class Snapshots {
    private Snapshots() {}

    static Map<String, String> of(Path root) throws IOException {
        Map<String, String> result = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                result.put(root.relativize(p).toString(), Files.isDirectory(p) ? "dir" : sha256(Files.readAllBytes(p)));
            }
        }
        return result;
    }

    private static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
