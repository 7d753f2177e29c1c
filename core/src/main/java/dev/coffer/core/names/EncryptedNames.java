package dev.coffer.core.names;

import java.util.Arrays;

/**
 * Remembers recently encrypted names, both ways: two direct-mapped tables (each name has one slot
 * by the hash of its cleartext and one by the hash of its encryption, and a newer name in a slot
 * replaces the older), so remembering costs one small object and no lock or resize. A lost race or
 * a replaced slot only means a miss. Bounded: {@link #SLOTS} names each way.
 */
final class EncryptedNames {
    /**
     * A power of two: enough for a folder being listed and looked up. Full, the tables hold ~1.5 MB
     * with 20-character names (a record, the name and its 52-character encryption each, shared by
     * both tables), ~12 MB at most with 255-byte names.
     */
    static final int SLOTS = 8192;

    private record Known(String parentDirId, String name, String encrypted) {}

    private final Known[] byName = new Known[SLOTS];
    private final Known[] byEncryption = new Known[SLOTS];

    /** The encrypted form remembered for {@code name} in {@code parentDirId}'s folder, or null. */
    String get(String parentDirId, String name) {
        Known k = byName[slot(parentDirId, name)];
        return k != null && k.name().equals(name) && k.parentDirId().equals(parentDirId) ? k.encrypted() : null;
    }

    /** The name remembered as encrypting to {@code encrypted} in {@code parentDirId}'s folder, or null. */
    String nameOf(String parentDirId, String encrypted) {
        Known k = byEncryption[slot(parentDirId, encrypted)];
        return k != null && k.encrypted().equals(encrypted) && k.parentDirId().equals(parentDirId) ? k.name() : null;
    }

    /** Remembers that {@code name} encrypts to {@code encrypted}: only ever an encryption's own result. */
    void put(String parentDirId, String name, String encrypted) {
        Known k = new Known(parentDirId, name, encrypted);
        byName[slot(parentDirId, name)] = k;
        byEncryption[slot(parentDirId, encrypted)] = k;
    }

    /** Forgets every name (on lock). */
    void clear() {
        Arrays.fill(byName, null);
        Arrays.fill(byEncryption, null);
    }

    private static int slot(String parentDirId, String key) {
        int h = key.hashCode() * 31 + parentDirId.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
