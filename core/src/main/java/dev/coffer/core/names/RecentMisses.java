package dev.coffer.core.names;

import java.util.Arrays;

/**
 * Which folders had a name looked up and not found in the last second: there the next lookup of
 * another name is likely a miss too (a program creating files, an archive being extracted: each new
 * name is looked up, missed, and looked up again by its create), so it is worth asking {@link
 * AbsenceProbe} first. Elsewhere (listing, reading, deleting what exists) lookups find their names
 * and go straight to the stat they need. The name the probe last found present in a folder is not
 * probed again (the file just created, which is then looked up for each of its setattrs). A wrong
 * guess costs one system call or one exception, never a wrong answer, so the table is small, lossy
 * and unlocked: two folders may share a slot, and a racing update only loses a note. It holds
 * encrypted names only.
 */
final class RecentMisses {
    static final long WINDOW_MILLIS = 1000;
    private static final int SLOTS = 64; // a power of two

    /** A folder's latest miss, and the (encrypted) name last found present there since; immutable, so a slot is read whole. */
    private record Note(String dirId, long at, String present) {}

    private final Note[] notes = new Note[SLOTS];

    /** Notes that a lookup in folder {@code dirId} at {@code nowMillis} found nothing. */
    void missed(String dirId, long nowMillis) {
        notes[slot(dirId)] = new Note(dirId, nowMillis, null);
    }

    /** Notes that the probe found {@code encName} present in folder {@code dirId}: its next lookups stat at once. */
    void present(String dirId, String encName) {
        int i = slot(dirId);
        Note n = notes[i];
        if (n != null && n.dirId().equals(dirId)) {
            notes[i] = new Note(dirId, n.at(), encName);
        }
    }

    /**
     * Whether a lookup of {@code encName} in folder {@code dirId} at {@code nowMillis} is likely a
     * miss: the folder had one noted within the window, and the name is not the one found present since.
     */
    boolean likelyIn(String dirId, String encName, long nowMillis) {
        Note n = notes[slot(dirId)];
        return n != null && nowMillis - n.at() < WINDOW_MILLIS && nowMillis >= n.at() && n.dirId().equals(dirId)
                && !encName.equals(n.present());
    }

    /** Forgets every note (the vault was locked). */
    void clear() {
        Arrays.fill(notes, null);
    }

    private static int slot(String dirId) {
        int h = dirId.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
