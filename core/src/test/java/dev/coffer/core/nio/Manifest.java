package dev.coffer.core.nio;

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
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The manifest format of shared/testdata: {@code path TAB type TAB size TAB hash-or-target}, sorted
 * by the UTF-8 bytes of the path. Files that cannot be read are left out and counted.
 */
final class Manifest {
    final List<String> lines = new ArrayList<>();
    final List<String> unreadable = new ArrayList<>();

    static Manifest of(Path root) throws IOException {
        Manifest m = new Manifest();
        m.walk(root, root);
        m.lines.sort((a, b) -> Arrays.compareUnsigned(pathOf(a), pathOf(b)));
        return m;
    }

    static List<String> read(Path manifestFile) throws IOException {
        return Files.readAllLines(manifestFile, StandardCharsets.UTF_8).stream().filter(l -> !l.isEmpty()).toList();
    }

    private static byte[] pathOf(String line) {
        return line.substring(0, line.indexOf('\t')).getBytes(StandardCharsets.UTF_8);
    }

    private void walk(Path root, Path dir) throws IOException {
        List<Path> children;
        try (Stream<Path> s = Files.list(dir)) {
            children = s.toList();
        }
        for (Path child : children) {
            String rel = escape(root.relativize(child).toString());
            BasicFileAttributes a = Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isSymbolicLink()) {
                String target = Files.readSymbolicLink(child).toString();
                lines.add(rel + "\tl\t" + target.getBytes(StandardCharsets.UTF_8).length + "\t" + escape(target));
            } else if (a.isDirectory()) {
                lines.add(rel + "\td\t-\t-");
                walk(root, child);
            } else {
                try {
                    lines.add(rel + "\tf\t" + a.size() + "\t" + sha256(child));
                } catch (IOException e) {
                    unreadable.add(rel);
                }
            }
        }
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[65536];
            int n;
            while ((n = in.read(buf)) > 0) {
                md.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }
}
