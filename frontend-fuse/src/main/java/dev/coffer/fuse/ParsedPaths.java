package dev.coffer.fuse;

import java.nio.file.Path;

/**
 * The backing paths of the kernel paths parsed last: the requests of one file's life repeat its
 * path (tar's LOOKUP, CREATE and three SETATTRs of each file it writes), and parsing a path into the
 * vault's {@link Path} costs about a microsecond each time. Paths are immutable, so an entry is valid
 * for as long as the mount serves the same root.
 *
 * <p>Direct-mapped by the path's hash, {@value #SLOTS} slots of immutable records, so concurrent
 * workers never see half an entry; a slot taken by another path only costs a parse.
 */
final class ParsedPaths {
    static final int SLOTS = 64;

    private record Parsed(String fusePath, Path path) {}

    private final Parsed[] slots = new Parsed[SLOTS];

    /** The path kept for {@code fusePath}, or null. */
    Path get(String fusePath) {
        Parsed p = slots[slot(fusePath)];
        return p != null && p.fusePath().equals(fusePath) ? p.path() : null;
    }

    void put(String fusePath, Path path) {
        slots[slot(fusePath)] = new Parsed(fusePath, path);
    }

    private static int slot(String fusePath) {
        int h = fusePath.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
