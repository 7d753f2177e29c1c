package dev.coffer.core.names;

/**
 * Whether a lookup is likely to miss: a name was looked up and not found in the last second,
 * anywhere in the vault. Then the next lookup of another name is likely a miss too (a program
 * creating files, an archive being extracted: each new name is looked up, missed, and looked up
 * again by its create), so it is worth asking {@link AbsenceProbe} first. The vault is watched as a
 * whole, not folder by folder, because extractions and copies need not stay in one folder (an
 * archive may hold its files in any order, a compiler probes many folders for each header). The
 * name last made or found present is not probed (the file just created, which is then looked up
 * for each of its setattrs); after {@link #WRONG_GUESSES} probes in a row found their names present
 * (a program reading what exists while another creates), lookups go straight to the stat again until
 * the next miss. A wrong guess costs one system call or one exception, never a wrong answer, so the
 * note is lossy and unlocked: a racing update only loses a note. It holds encrypted names only.
 */
final class RecentMisses {
    static final long WINDOW_MILLIS = 1000;
    /** Probes in a row that found their names present, after which lookups stop probing until the next miss. */
    static final int WRONG_GUESSES = 2;

    /**
     * The latest miss, the (encrypted) name last made or found present since, and how many probes
     * in a row found their names present; immutable, so the note is read whole.
     */
    private record Note(long at, String presentDir, String presentName, int wrongGuesses) {
        Note withPresent(String dirId, String encName, int wrong) {
            return new Note(at, dirId, encName, wrong);
        }
    }

    private volatile Note note;

    /** Notes that a lookup in folder {@code dirId} at {@code nowMillis} found nothing. */
    void missed(String dirId, long nowMillis) {
        note = new Note(nowMillis, null, null, 0);
    }

    /** Notes that the probe found {@code encName} present in folder {@code dirId}: a wrong guess, and that name's next lookups stat at once. */
    void present(String dirId, String encName) {
        Note n = note;
        if (n != null) {
            note = n.withPresent(dirId, encName, n.wrongGuesses() + 1);
        }
    }

    /** Notes that {@code encName} was just made in folder {@code dirId} (after its miss): its next lookups stat at once. */
    void made(String dirId, String encName) {
        Note n = note;
        if (n != null) {
            note = n.withPresent(dirId, encName, n.wrongGuesses());
        }
    }

    /**
     * Whether a lookup of {@code encName} in folder {@code dirId} at {@code nowMillis} is likely a
     * miss: a miss was noted within the window, fewer than {@link #WRONG_GUESSES} probes since found
     * their names present, and the name is not the one last made or found present.
     */
    boolean likelyIn(String dirId, String encName, long nowMillis) {
        Note n = note;
        return n != null && nowMillis - n.at() < WINDOW_MILLIS && nowMillis >= n.at()
                && n.wrongGuesses() < WRONG_GUESSES
                && !(encName.equals(n.presentName()) && dirId.equals(n.presentDir()));
    }

    /** Forgets every note (the vault was locked). */
    void clear() {
        note = null;
    }
}
