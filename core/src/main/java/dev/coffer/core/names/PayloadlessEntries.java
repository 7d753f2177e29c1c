package dev.coffer.core.names;

import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves the decorated payloads in entry folders that hold no payload of their own ({@link
 * Listing.PayloadlessEntry}), as {@link EntryCopies} does for a copy folder without a payload: with
 * no payload to be identical to, each decorated payload becomes a new entry {@code <N> (Conflict k)}
 * (spec 6, via {@link InternalCopies}), never the entry's payload: a sync still delivering the real
 * payload would then meet a file at its name. The emptied folder and its {@code name.c9s} go only if
 * nothing in it changed for a day ({@link SyncGrace}). Read-only: only records the names they would get.
 */
final class PayloadlessEntries {
    private static final Logger LOG = LoggerFactory.getLogger(PayloadlessEntries.class);

    private final InternalCopies internalCopies;
    private final boolean readOnly;

    PayloadlessEntries(InternalCopies internalCopies, boolean readOnly) {
        this.internalCopies = internalCopies;
        this.readOnly = readOnly;
    }

    void resolve(Listing listing, ConflictState state) {
        for (Listing.PayloadlessEntry entry : listing.payloadless()) {
            try {
                resolve(entry, state);
            } catch (IOException e) {
                LOG.warn("Could not resolve the conflict copies in the entry folder without a payload {}: {}",
                        entry.entryPath(), e.toString());
            }
        }
    }

    private void resolve(Listing.PayloadlessEntry entry, ConflictState state) throws IOException {
        // Looked at before anything is moved out: the moves themselves change the folder.
        boolean settled = !readOnly && !SyncGrace.changedRecently(entry.entryPath());
        InternalCopies.Owner owner = new InternalCopies.Owner(entry.name(), entry.entryPath(), null, null);
        for (Path copy : entry.decorated()) {
            internalCopies.resolve(owner, copy, state);
        }
        if (settled && EntryMoves.removeEmptied(entry.entryPath(), entry.shortened())) {
            state.markChanged();
        }
    }
}
