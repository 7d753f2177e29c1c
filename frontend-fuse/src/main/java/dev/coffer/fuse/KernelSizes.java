package dev.coffer.fuse;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The size each file's name was last given to the kernel with (a getattr's or fgetattr's answer), so
 * that an OPEN can tell that the kernel's cached size is not the file's any more: a sync client
 * replaced the ciphertext behind the mount within the kernel's cache time (10 s). The kernel reads
 * an open file through its page cache only up to the size it holds, so without a word from the mount
 * a program reading the synced, longer version got its first bytes cut to the old size, silently.
 *
 * <p>Writes through the mount need nothing here: the kernel marks the size it changed by a write as
 * stale itself and asks at the next read past it. A name never noted, or pushed out of its slot, is
 * not checked: as before this class, its attributes are refreshed when they expire.
 * Direct-mapped and bounded ({@value #SLOTS} slots of immutable records).
 */
final class KernelSizes {
    static final int SLOTS = 16384;

    private record Noted(String path, long size) {}

    private final AtomicReferenceArray<Noted> slots = new AtomicReferenceArray<>(SLOTS);

    /** The kernel was given {@code size} for the file at {@code path}. */
    void noted(String path, long size) {
        int i = slot(path);
        Noted held = slots.get(i);
        if (held == null || held.size != size || !held.path.equals(path)) {
            slots.set(i, new Noted(path, size));
        }
    }

    /** The size the kernel was last given for {@code path}, or -1 if none is noted. */
    long given(String path) {
        Noted held = slots.get(slot(path));
        return held != null && held.path.equals(path) ? held.size : -1;
    }

    /** After a rename through the mount: the kernel's entry, with its size, now has the name {@code to}. */
    void moved(String from, String to) {
        int i = slot(from);
        Noted held = slots.get(i);
        if (held != null && held.path.equals(from)) {
            slots.compareAndSet(i, held, null);
            noted(to, held.size);
        } else {
            forget(to);
        }
    }

    /** The name is gone (unlinked through the mount). */
    void forget(String path) {
        int i = slot(path);
        Noted held = slots.get(i);
        if (held != null && held.path.equals(path)) {
            slots.compareAndSet(i, held, null);
        }
    }

    private static int slot(String path) {
        int h = path.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
