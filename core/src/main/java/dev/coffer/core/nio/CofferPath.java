package dev.coffer.core.nio;

import dev.coffer.core.names.Entry;
import dev.coffer.core.names.Names;
import java.io.IOException;
import java.net.URI;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A cleartext path inside a vault: '/'-separated, absolute when it starts with '/'. Purely
 * syntactic, like {@code UnixPath}; the file system maps it to ciphertext. Immutable.
 *
 * <p>A path a directory stream hands out also carries the entry the listing found for it, a hint
 * that lets a stat skip encrypting the name; it is checked against the disk before each use (see
 * {@code Resolver.locateForStat}) and is no part of the path's identity.
 */
public final class CofferPath implements Path {
    private final CofferFileSystem fs;
    private final boolean absolute;
    private final List<String> names;
    /** The entry a listing found at this path (absolute, normalized paths only), or null. */
    private final Entry listedEntry;

    CofferPath(CofferFileSystem fs, boolean absolute, List<String> names) {
        this(fs, absolute, names, null);
    }

    private CofferPath(CofferFileSystem fs, boolean absolute, List<String> names, Entry listedEntry) {
        this.fs = fs;
        this.absolute = absolute;
        this.names = List.copyOf(names);
        this.listedEntry = listedEntry;
    }

    /** This folder's child {@code entry}, as a listing found it (the hint is kept for normalized absolute folders). */
    CofferPath listedChild(Entry entry) {
        List<String> joined = new ArrayList<>(names.size() + 1);
        joined.addAll(names);
        joined.add(entry.name());
        boolean normalized = absolute && !names.contains(".") && !names.contains("..");
        return new CofferPath(fs, absolute, joined, normalized ? entry : null);
    }

    /** The entry a listing found at this path, or null: a hint, valid only if the disk still agrees. */
    Entry listedEntry() {
        return listedEntry;
    }

    static CofferPath parse(CofferFileSystem fs, String first, String... more) {
        StringBuilder sb = new StringBuilder(first);
        for (String m : more) {
            if (!m.isEmpty()) {
                sb.append('/').append(m);
            }
        }
        String s = sb.toString();
        if (s.indexOf('\0') >= 0) {
            throw new java.nio.file.InvalidPathException(s, "NUL character not allowed");
        }
        if (!isWellFormed(s)) {
            // No UTF-8 form: encrypting it would store a lossy '?' that other names collide with.
            // The default provider refuses such a path the same way.
            throw new java.nio.file.InvalidPathException(s, "Malformed input or input contains unmappable characters");
        }
        List<String> parts = new ArrayList<>();
        for (String p : s.split("/")) {
            if (!p.isEmpty()) {
                parts.add(p);
            }
        }
        return new CofferPath(fs, s.startsWith("/"), parts);
    }

    /** True if every surrogate in {@code s} is part of a pair, i.e. {@code s} has a UTF-8 form. */
    private static boolean isWellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** The components in NFC, as the vault stores them. */
    List<String> nfcNames() {
        List<String> nfc = new ArrayList<>(names.size());
        for (String n : names) {
            nfc.add(Names.nfc(n));
        }
        return nfc;
    }

    @Override
    public CofferFileSystem getFileSystem() {
        return fs;
    }

    @Override
    public boolean isAbsolute() {
        return absolute;
    }

    @Override
    public CofferPath getRoot() {
        return absolute ? new CofferPath(fs, true, List.of()) : null;
    }

    @Override
    public CofferPath getFileName() {
        return names.isEmpty() ? null : new CofferPath(fs, false, List.of(names.get(names.size() - 1)));
    }

    @Override
    public CofferPath getParent() {
        if (names.isEmpty() || (names.size() == 1 && !absolute)) {
            return null;
        }
        return new CofferPath(fs, absolute, names.subList(0, names.size() - 1));
    }

    @Override
    public int getNameCount() {
        return names.size();
    }

    @Override
    public CofferPath getName(int index) {
        return new CofferPath(fs, false, List.of(names.get(index)));
    }

    @Override
    public CofferPath subpath(int beginIndex, int endIndex) {
        return new CofferPath(fs, false, names.subList(beginIndex, endIndex));
    }

    @Override
    public boolean startsWith(Path other) {
        CofferPath o = checked(other);
        return o.absolute == absolute && o.names.size() <= names.size() && names.subList(0, o.names.size()).equals(o.names);
    }

    @Override
    public boolean endsWith(Path other) {
        CofferPath o = checked(other);
        if (o.absolute) {
            return equals(o);
        }
        return o.names.size() <= names.size() && names.subList(names.size() - o.names.size(), names.size()).equals(o.names);
    }

    @Override
    public CofferPath normalize() {
        if (!names.contains(".") && !names.contains("..")) {
            return this; // the common case: nothing to drop, no copy
        }
        List<String> out = new ArrayList<>();
        for (String n : names) {
            if (n.equals(".")) {
                continue;
            }
            if (n.equals("..")) {
                if (!out.isEmpty() && !out.get(out.size() - 1).equals("..")) {
                    out.remove(out.size() - 1);
                    continue;
                }
                if (absolute) {
                    continue; // "/.." is "/"
                }
            }
            out.add(n);
        }
        return new CofferPath(fs, absolute, out);
    }

    @Override
    public CofferPath resolve(Path other) {
        CofferPath o = checked(other);
        if (o.absolute) {
            return o;
        }
        List<String> joined = new ArrayList<>(names);
        joined.addAll(o.names);
        return new CofferPath(fs, absolute, joined);
    }

    @Override
    public CofferPath relativize(Path other) {
        CofferPath o = checked(other);
        if (o.absolute != absolute) {
            throw new IllegalArgumentException("one path is absolute, the other is not");
        }
        int common = 0;
        while (common < names.size() && common < o.names.size() && names.get(common).equals(o.names.get(common))) {
            common++;
        }
        List<String> rel = new ArrayList<>();
        for (int i = common; i < names.size(); i++) {
            rel.add("..");
        }
        rel.addAll(o.names.subList(common, o.names.size()));
        return new CofferPath(fs, false, rel);
    }

    @Override
    public URI toUri() {
        return fs.uriOf(toAbsolutePath().toString());
    }

    @Override
    public CofferPath toAbsolutePath() {
        return absolute ? this : new CofferPath(fs, true, names);
    }

    @Override
    public CofferPath toRealPath(LinkOption... options) throws IOException {
        CofferPath abs = toAbsolutePath().normalize();
        fs.provider().checkAccess(abs);
        return abs;
    }

    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
        throw new UnsupportedOperationException("watching a vault is not supported");
    }

    @Override
    public int compareTo(Path other) {
        return toString().compareTo(checked(other).toString());
    }

    private CofferPath checked(Path other) {
        if (!(other instanceof CofferPath p) || p.fs != fs) {
            throw new ProviderMismatchException();
        }
        return p;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CofferPath p && p.fs == fs && p.absolute == absolute && p.names.equals(names);
    }

    @Override
    public int hashCode() {
        return Objects.hash(absolute, names);
    }

    @Override
    public String toString() {
        String joined = String.join("/", names);
        return absolute ? "/" + joined : joined;
    }

    List<String> names() {
        return names;
    }
}
