package dev.coffer.app.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * A tree as the lines of shared/testdata's manifest format ({@code path TAB type TAB size TAB
 * sha256-or-target}), sorted; two trees are byte-identical (content, folders, symlink targets)
 * exactly when their manifests are equal. Works on any file system (plain folder or vault).
 */
final class Manifest {
    private Manifest() {}

    static List<String> of(Path root) throws IOException {
        List<String> lines = new ArrayList<>();
        walk(root, root, lines);
        lines.sort(null);
        return lines;
    }

    static List<String> read(Path manifestFile) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(manifestFile, StandardCharsets.UTF_8));
        lines.removeIf(String::isEmpty);
        lines.sort(null);
        return lines;
    }

    private static void walk(Path root, Path dir, List<String> lines) throws IOException {
        List<Path> children;
        try (Stream<Path> s = Files.list(dir)) {
            children = s.toList();
        }
        for (Path child : children) {
            String rel = root.relativize(child).toString();
            BasicFileAttributes a = Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isSymbolicLink()) {
                String target = Files.readSymbolicLink(child).toString();
                lines.add(rel + "\tl\t" + target.getBytes(StandardCharsets.UTF_8).length + "\t" + target);
            } else if (a.isDirectory()) {
                lines.add(rel + "\td\t-\t-");
                walk(root, child, lines);
            } else {
                lines.add(rel + "\tf\t" + a.size() + "\t" + sha256(child));
            }
        }
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[65536];
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                md.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
