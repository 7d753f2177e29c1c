package dev.coffer.core.names;

import java.util.Arrays;

/**
 * Remembers recently encrypted names: a direct-mapped table (each name has one slot, by its hash,
 * and a newer name in that slot replaces the older), so remembering costs one small object and no
 * lock or resize. A lost race or a replaced slot only means a miss. Bounded: {@link #SLOTS} names.
 */
final class EncryptedNames {
    /**
     * A power of two: enough for a folder being listed and looked up. Full, the table holds ~1.5 MB
     * with 20-character names (a record, the name and its 52-character encryption each), ~6 MB at most
     * with 255-byte names.
     */
    static final int SLOTS = 8192;

    private record Known(String parentDirId, String name, String encrypted) {}

    private final Known[] slots = new Known[SLOTS];

    /** The encrypted form remembered for {@code name} in {@code parentDirId}'s folder, or null. */
    String get(String parentDirId, String name) {
        Known k = slots[slot(parentDirId, name)];
        return k != null && k.name().equals(name) && k.parentDirId().equals(parentDirId) ? k.encrypted() : null;
    }

    void put(String parentDirId, String name, String encrypted) {
        slots[slot(parentDirId, name)] = new Known(parentDirId, name, encrypted);
    }

    /** Forgets every name (on lock). */
    void clear() {
        Arrays.fill(slots, null);
    }

    private static int slot(String parentDirId, String name) {
        int h = name.hashCode() * 31 + parentDirId.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
