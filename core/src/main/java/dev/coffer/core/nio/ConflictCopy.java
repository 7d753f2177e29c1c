package dev.coffer.core.nio;

import java.util.Objects;
import java.util.Optional;

/**
 * What the file system did with an open file whose ciphertext another program (a sync client)
 * replaced or deleted underneath, at its last close (or at the file system's close): the program's
 * content kept as a conflict copy, kept only in part, or not kept. Paths are the vault's cleartext
 * paths ({@code /docs/report.txt}, {@code /docs/report.txt (Conflict 1)}), for the person to be told.
 *
 * <p>{@link #toString} names no path: the names must not end up in a log by accident.
 *
 * @param original the open file's path when it was closed (its folder may be gone)
 * @param copy     where its content was written; empty if no copy is left
 * @param complete true if the copy holds all of the content
 */
public record ConflictCopy(String original, Optional<String> copy, boolean complete) {
    /**
     * The name of the SLF4J marker on core's nameless WARN about a conflict copy when a listener
     * ({@code CofferFileSystem.onConflictCopies}) is told of the same copy by name right after: an
     * owner that prints its own line for it (the command line) may keep that WARN off the terminal.
     * Without a listener the WARN is unmarked.
     */
    public static final String TOLD_BY_NAME = "coffer-conflict-copy-told-by-name";

    public ConflictCopy {
        Objects.requireNonNull(original, "original");
        Objects.requireNonNull(copy, "copy");
        if (complete && copy.isEmpty()) {
            throw new IllegalArgumentException("a complete copy needs its path");
        }
    }

    /** All of the content was kept at {@code copy}. */
    public static ConflictCopy kept(String original, String copy) {
        return new ConflictCopy(original, Optional.of(copy), true);
    }

    /** The copy failed part-way (full disk, damaged unit): {@code copy} holds what could be read and written. */
    public static ConflictCopy keptInPart(String original, String copy) {
        return new ConflictCopy(original, Optional.of(copy), false);
    }

    /** No copy could be made: what the program wrote is lost. */
    public static ConflictCopy notKept(String original) {
        return new ConflictCopy(original, Optional.empty(), false);
    }

    @Override
    public String toString() {
        return "ConflictCopy[" + (complete ? "kept" : copy.isPresent() ? "kept in part" : "not kept") + "]";
    }
}
