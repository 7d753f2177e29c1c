package dev.coffer.core.names;

import java.util.Arrays;

/**
 * Remembers recently encrypted names, both ways: two tables, one by the hash of the cleartext name
 * and one by the hash of its encryption. Each is two-way set-associative (a name may sit in either
 * slot of its pair; a new name goes first and pushes the pair's older one out), so that two names
 * of one folder that share a pair are both kept: with one slot each, such names evicted each other
 * at every listing of the folder. Remembering costs one small object and no lock or resize; a lost
 * race or a replaced slot only means a miss. Bounded: {@link #SLOTS} names each way.
 */
final class EncryptedNames {
    /**
     * A power of two: enough for a folder being listed and looked up. Full, the tables hold ~1.5 MB
     * with 20-character names (a record, the name and its 52-character encryption each, shared by
     * both tables), ~12 MB at most with 255-byte names.
     */
    static final int SLOTS = 8192;

    private record Known(String parentDirId, String name, String encrypted) {
        boolean is(String dirId, String key, boolean byEncryption) {
            return (byEncryption ? encrypted : name).equals(key) && parentDirId.equals(dirId);
        }
    }

    private final Known[] byName = new Known[SLOTS];
    private final Known[] byEncryption = new Known[SLOTS];

    /** The encrypted form remembered for {@code name} in {@code parentDirId}'s folder, or null. */
    String get(String parentDirId, String name) {
        Known k = find(byName, parentDirId, name, false);
        return k == null ? null : k.encrypted();
    }

    /** The name remembered as encrypting to {@code encrypted} in {@code parentDirId}'s folder, or null. */
    String nameOf(String parentDirId, String encrypted) {
        Known k = find(byEncryption, parentDirId, encrypted, true);
        return k == null ? null : k.name();
    }

    /** Remembers that {@code name} encrypts to {@code encrypted}: only ever an encryption's own result. */
    void put(String parentDirId, String name, String encrypted) {
        Known k = new Known(parentDirId, name, encrypted);
        store(byName, k, name, false);
        store(byEncryption, k, encrypted, true);
    }

    /** Forgets every name (on lock). */
    void clear() {
        Arrays.fill(byName, null);
        Arrays.fill(byEncryption, null);
    }

    private static Known find(Known[] table, String dirId, String key, boolean byEncryption) {
        int pair = pair(dirId, key);
        Known first = table[pair];
        if (first != null && first.is(dirId, key, byEncryption)) {
            return first;
        }
        Known second = table[pair + 1];
        return second != null && second.is(dirId, key, byEncryption) ? second : null;
    }

    private static void store(Known[] table, Known k, String key, boolean byEncryption) {
        int pair = pair(k.parentDirId(), key);
        Known first = table[pair];
        if (first != null && !first.is(k.parentDirId(), key, byEncryption)) {
            table[pair + 1] = first;
        }
        table[pair] = k;
    }

    /** The first slot of the key's pair (package-private for the tests). */
    static int pair(String parentDirId, String key) {
        int h = key.hashCode() * 31 + parentDirId.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS - 2);
    }
}
