package dev.coffer.webdav;

import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A path below the served root, as a list of validated cleartext name segments (NFC): the one
 * place that decides which decoded request paths are acceptable. A segment that is empty,
 * {@code .}, {@code ..}, contains a slash, a backslash or NUL, or names one of the server's own
 * sidecar files ({@link DeadProperties#isSidecarName}) makes the whole path invalid, so no request
 * can reach anything outside the root or the server's own bookkeeping.
 *
 * <p>Not responsible for URL decoding or for the secret prefix ({@link DavUrls} is).
 */
record DavPath(List<String> segments) {
    static final DavPath ROOT = new DavPath(List.of());

    DavPath {
        segments = List.copyOf(segments);
    }

    /** The path of decoded segments (separated by {@code /}), or empty if any segment is not acceptable. */
    static Optional<DavPath> parse(String decodedPath) {
        List<String> out = new ArrayList<>();
        for (String raw : decodedPath.split("/", -1)) {
            if (raw.isEmpty()) {
                continue; // leading, trailing and doubled slashes
            }
            Optional<String> name = validName(raw);
            if (name.isEmpty()) {
                return Optional.empty();
            }
            out.add(name.get());
        }
        return Optional.of(new DavPath(out));
    }

    /** The NFC form of a single name, or empty if it cannot be a name in the served tree. */
    static Optional<String> validName(String raw) {
        if (raw.isEmpty() || raw.equals(".") || raw.equals("..") || raw.indexOf('/') >= 0 || raw.indexOf('\\') >= 0
                || raw.indexOf('\0') >= 0) {
            return Optional.empty();
        }
        if (!xmlSafe(raw)) {
            return Optional.empty(); // a listing that named it would not be XML: clients could list nothing of its folder
        }
        String nfc = Normalizer.normalize(raw, Normalizer.Form.NFC);
        if (DeadProperties.isSidecarName(nfc)) {
            return Optional.empty();
        }
        return Optional.of(nfc);
    }

    /** Whether XML 1.0 can carry every character of {@code name} (no control character but tab, LF, CR; no U+FFFE, U+FFFF). */
    private static boolean xmlSafe(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == '\uFFFE' || c == '\uFFFF') {
                return false;
            }
        }
        return true;
    }

    boolean isRoot() {
        return segments.isEmpty();
    }

    String name() {
        return isRoot() ? "" : segments.get(segments.size() - 1);
    }

    DavPath parent() {
        return isRoot() ? this : new DavPath(segments.subList(0, segments.size() - 1));
    }

    DavPath child(String name) {
        List<String> s = new ArrayList<>(segments);
        s.add(name);
        return new DavPath(s);
    }

    /** True if this path is {@code other} or lies below it. */
    boolean startsWith(DavPath other) {
        return segments.size() >= other.segments.size() && segments.subList(0, other.segments.size()).equals(other.segments);
    }

    /** The file for this path below {@code root}; segments were validated, so it cannot leave the root. */
    Path resolveIn(Path root) {
        Path p = root;
        for (String s : segments) {
            p = p.resolve(s);
        }
        return p;
    }

    @Override
    public String toString() {
        return "/" + String.join("/", segments);
    }
}
