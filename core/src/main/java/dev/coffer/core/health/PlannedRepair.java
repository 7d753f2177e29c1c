package dev.coffer.core.health;

import java.io.IOException;

/**
 * One change {@code --repair} will make, described for people before it is made. Repairs run in the
 * order of their {@link Step}: pointers and {@code dirid.c9r} first, then names, so that later steps see a
 * sound tree; orphans last, so that LOST+FOUND adopts folders whose own conflicts are resolved.
 */
public final class PlannedRepair {
    /** The order repairs run in. */
    enum Step {
        STORAGE,
        NAMES,
        FILES,
        CONFLICTS,
        /** After conflicts, so that a folder copied for a second pointer is copied with its conflicts resolved. */
        DUPLICATE_IDS,
        ORPHANS,
        /** After orphans: an interrupted write in an adopted folder is truncated under its LOST+FOUND path. */
        INTERRUPTED_WRITES,
        TEMPORARY_FILES
    }

    /** The change itself; every write in it is atomic (temporary file, fsync, rename). */
    @FunctionalInterface
    interface Action {
        void apply(Repairs repairs) throws IOException;
    }

    private final Step step;
    private final String key;
    private final String description;
    private final Action action;

    /** @param key identifies the change, so that two findings needing the same change plan it once */
    PlannedRepair(Step step, String key, String description, Action action) {
        this.step = step;
        this.key = key;
        this.description = description;
        this.action = action;
    }

    /** What the repair will do, naming ciphertext (and where known cleartext) paths. */
    public String description() {
        return description;
    }

    Step step() {
        return step;
    }

    String key() {
        return key;
    }

    void apply(Repairs repairs) throws IOException {
        action.apply(repairs);
    }

    @Override
    public String toString() {
        return description;
    }
}
