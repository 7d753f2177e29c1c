package dev.coffer.core.names;

import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Remembers which payload an entry folder held ({@code dir.c9r}, {@code symlink.c9r},
 * {@code contents.c9r}), so that a folder's lookup need not probe for them every time: the kernel
 * asks for a folder's attributes after every unlink in it, and the probes were two of its four stats.
 *
 * <p>An answer is reused only while the entry folder is the same folder (file key) with the same
 * modification time it had when the answer was found: adding, removing or renaming a payload in
 * it changes that time. Answers are kept only for folders last modified at least
 * {@link #SETTLED_MILLIS} before they were probed, because a file system stamps times in ticks (a
 * jiffy, or seconds on some), and a second change within the tick of the probe would leave the time
 * unchanged. Without a file key (some file systems have none), nothing is kept.
 */
final class EntryTypeCache {
    /** Longer than any file system's time stamp granularity that a vault is likely to live on (FAT: 2 s). */
    static final long SETTLED_MILLIS = 3_000;
    /** Entries kept at most; past it the cache starts over (a walk of a huge tree must not grow the heap). */
    static final int MAX_ENTRIES = 16_384;

    private record Known(Object fileKey, FileTime modified, EntryType type) {}

    private final Map<Path, Known> known = new ConcurrentHashMap<>();
    private final LongSupplier clock;

    EntryTypeCache(LongSupplier clockMillis) {
        this.clock = clockMillis;
    }

    /** The type found for {@code entryFolder} when it looked exactly as {@code attrs} says, or null. */
    EntryType get(Path entryFolder, BasicFileAttributes attrs) {
        Known k = known.get(entryFolder);
        if (k == null || attrs.fileKey() == null) {
            return null;
        }
        return Objects.equals(k.fileKey(), attrs.fileKey()) && k.modified().equals(attrs.lastModifiedTime()) ? k.type() : null;
    }

    /** Keeps {@code type}, just probed in {@code entryFolder} that looked as {@code attrs} says, if that is safe. */
    void put(Path entryFolder, BasicFileAttributes attrs, EntryType type) {
        Object fileKey = attrs.fileKey();
        FileTime modified = attrs.lastModifiedTime();
        if (fileKey == null || modified.toMillis() > clock.getAsLong() - SETTLED_MILLIS) {
            known.remove(entryFolder);
            return;
        }
        if (known.size() >= MAX_ENTRIES) {
            known.clear();
        }
        known.put(entryFolder, new Known(fileKey, modified, type));
    }
}
