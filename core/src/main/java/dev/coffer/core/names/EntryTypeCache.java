package dev.coffer.core.names;

import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
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
 * {@link #SETTLED_MILLIS} before they were looked at, because a file system stamps times in ticks
 * (a jiffy, or seconds on some), and a second change within the tick of the probe would leave the
 * time unchanged; and only for {@link #MAX_AGE_MILLIS}, because sync and backup tools set folder
 * times back (rsync -a, Syncthing, restores), which can make a changed folder look unchanged.
 * Without a file key (some file systems have none), nothing is kept. The caller stats the folder
 * again after probing and keeps the answer only if it did not change meanwhile.
 */
final class EntryTypeCache {
    /** Longer than any file system's time stamp granularity that a vault is likely to live on (FAT: 2 s). */
    static final long SETTLED_MILLIS = 3_000;
    /** How long an answer is reused at most: bounds how long a folder time set back can mislead. */
    static final long MAX_AGE_MILLIS = 60_000;
    /** Entries kept at most; past it the cache starts over (a walk of a huge tree must not grow the heap). */
    static final int MAX_ENTRIES = 16_384;

    private record Known(BasicFileAttributes seen, EntryType type, long keptAt) {}

    private final Map<Path, Known> known = new ConcurrentHashMap<>();
    private final LongSupplier clock;

    EntryTypeCache(LongSupplier clockMillis) {
        this.clock = clockMillis;
    }

    /** The clock, read by callers before they stat an entry folder (see {@link #worthKeeping}). */
    long now() {
        return clock.getAsLong();
    }

    /** The type found for {@code entryFolder} when it looked exactly as {@code attrs} says, or null. */
    EntryType get(Path entryFolder, BasicFileAttributes attrs) {
        Known k = known.get(entryFolder);
        if (k == null || !sameFolder(k.seen(), attrs)) {
            return null;
        }
        return clock.getAsLong() - k.keptAt() <= MAX_AGE_MILLIS ? k.type() : null;
    }

    /** Whether two stats saw the same folder with the same time (never true without a file key). */
    static boolean sameFolder(BasicFileAttributes a, BasicFileAttributes b) {
        return a.fileKey() != null && a.fileKey().equals(b.fileKey()) && a.lastModifiedTime().equals(b.lastModifiedTime());
    }

    /** Whether an entry folder that looked as {@code attrs} says when statted at {@code statTime} may be kept at all. */
    boolean worthKeeping(BasicFileAttributes attrs, long statTime) {
        return attrs.fileKey() != null && attrs.lastModifiedTime().toMillis() <= statTime - SETTLED_MILLIS;
    }

    /**
     * Keeps {@code type}, probed in {@code entryFolder} after a stat at {@code statTime} that found
     * {@code attrs}, if {@link #worthKeeping} says so; else forgets what was kept for it.
     */
    void put(Path entryFolder, BasicFileAttributes attrs, long statTime, EntryType type) {
        if (!worthKeeping(attrs, statTime)) {
            known.remove(entryFolder);
            return;
        }
        if (known.size() >= MAX_ENTRIES) {
            known.clear();
        }
        known.put(entryFolder, new Known(attrs, type, statTime));
    }
}
