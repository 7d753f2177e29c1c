package dev.coffer.core.names;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves sync-conflict copies of internal files in one folder (spec 6), after the entry copies:
 * <ul>
 *   <li>a decorated payload ({@code dir (1).c9r}, {@code symlink (1).c9r}, {@code contents (1).c9r})
 *       identical to its entry's payload is removed; any other becomes a new entry
 *       {@code <N> (Conflict k)} holding that payload;</li>
 *   <li>a decorated {@code name.c9s} identical to the entry's own is removed, any other is left;</li>
 *   <li>a decorated {@code dirid.c9r} with the same cleartext as {@code dirid.c9r} is removed, any
 *       other is left.</li>
 * </ul>
 * {@link EntryCopies} also hands it the decorated payloads inside an entry copy's folder, before it
 * places or removes the copy, and {@link PayloadlessEntries} those in an entry folder without a
 * payload. With no payload to compare with, a decorated {@code dir (1).c9r} holding the ID an entry
 * of the folder points to counts as identical (removed). Nothing that differs from what stays is ever deleted. Read-only: nothing is removed, and a
 * differing payload is listed as {@code <N> (Conflict k)} straight from its decorated file.
 */
final class InternalCopies {
    private static final Logger LOG = LoggerFactory.getLogger(InternalCopies.class);

    private final PathMapper mapper;
    private final PayloadComparison comparison;
    private final boolean readOnly;

    InternalCopies(PathMapper mapper, PayloadComparison comparison, boolean readOnly) {
        this.mapper = mapper;
        this.comparison = comparison;
        this.readOnly = readOnly;
    }

    /**
     * The entry whose folder holds decorated copies: its NFC name N, its folder, and its payload's
     * type and file, both null for a copy folder without a payload (nothing is identical to it).
     */
    record Owner(String name, Path folder, EntryType type, Path payload) {
        static Owner of(Entry entry) {
            return new Owner(entry.name(), entry.entryPath(), entry.type(), entry.payload());
        }
    }

    void resolve(Listing listing, ConflictState state) {
        for (Listing.DecoratedPayload dp : listing.decoratedPayloads()) {
            resolve(Owner.of(dp.entry()), dp.copy(), state);
        }
        Path dirIdFile = listing.dir().storage().resolve(DirectoryLister.DIRID_FILE);
        for (Path copy : listing.decoratedDirIds()) {
            try {
                if (!readOnly && comparison.sameCleartext(dirIdFile, copy)) {
                    remove(copy, state);
                }
            } catch (IOException e) {
                LOG.warn("Could not remove the identical copy {}: {}", copy, e.toString());
            }
        }
    }

    /** Resolves one decorated copy in {@code owner}'s folder; a failure is logged and leaves it as it is. */
    void resolve(Owner owner, Path copy, ConflictState state) {
        try {
            resolveOrFail(owner, copy, state);
        } catch (IOException e) {
            LOG.warn("Could not resolve the internal conflict copy {}: {}", copy, e.toString());
        }
    }

    private void resolveOrFail(Owner owner, Path copy, ConflictState state) throws IOException {
        String fileName = copy.getFileName().toString();
        if (fileName.endsWith(LongNames.C9S)) {
            if (!readOnly && PayloadComparison.sameBytes(owner.folder().resolve(LongNames.NAME_FILE), copy)) {
                remove(copy, state);
            }
            return;
        }
        EntryType type = payloadType(fileName);
        if (owner.type() != null && type == owner.type() && comparison.identical(type, copy, owner.payload())
                || owner.type() == null && type == EntryType.DIRECTORY && pointerHeld(copy, state)) {
            if (!readOnly) {
                remove(copy, state);
            }
            return;
        }
        for (int k = 1; ; k++) {
            String name = ConflictNames.internalConflictName(owner.name(), k);
            if (!state.isTaken(name) && adopt(copy, type, mapper.slot(state.dir(), name), state)) {
                return;
            }
        }
    }

    /**
     * Whether an entry of this folder already points to the directory ID in {@code copy}: a move
     * cut short leaves the old entry folder with a decorated copy of the pointer it moved, and
     * adopting it would show one subtree under two names.
     */
    private boolean pointerHeld(Path copy, ConflictState state) throws IOException {
        for (Entry e : state.entries()) {
            if (e.type() == EntryType.DIRECTORY && comparison.identical(EntryType.DIRECTORY, copy, e.payload())) {
                return true;
            }
        }
        return false;
    }

    /** Makes {@code copy} the payload of a new entry in {@code target}; false if the target is occupied. */
    private boolean adopt(Path copy, EntryType type, Slot target, ConflictState state) throws IOException {
        if (readOnly) {
            if (ConflictState.occupied(target)) {
                return false;
            }
            state.give(target, new Entry(state.dir(), target.name(), type, copy, false, copy));
            return true;
        }
        if (!EntryMoves.adopt(copy, type, target)) {
            return false;
        }
        state.give(target, new Entry(state.dir(), target.name(), type, target.entryPath(), target.shortened()));
        state.markChanged();
        return true;
    }

    private static void remove(Path copy, ConflictState state) throws IOException {
        Files.delete(copy);
        state.markChanged();
    }

    /** The type whose payload {@code fileName} is a decorated copy of (the lister only reports such names). */
    private static EntryType payloadType(String fileName) {
        for (EntryType t : EntryType.values()) {
            String base = t.payloadName().substring(0, t.payloadName().length() - LongNames.C9R.length());
            if (Decorations.isDecoratedCopy(fileName, base)) {
                return t;
            }
        }
        throw new IllegalArgumentException("not a decorated payload: " + fileName);
    }
}
