package dev.coffer.core.names;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Resolves the sync conflicts of one listed folder (spec 6), so that every device converges on the
 * same tree: entry copies first (rules 1 to 3, {@link EntryCopies}), then decorated payloads in
 * entry folders without a payload ({@link PayloadlessEntries}), then the other decorated internal
 * files ({@link InternalCopies}). Writable: changes the disk, then lists the folder again; a pass that
 * changed something is followed by another (a renamed copy may hold decorated payloads of its own),
 * at most {@value #MAX_PASSES} in all. Read-only: writes nothing and lists each copy under the name
 * it would get. Not thread-safe for one folder: the caller serialises listings of a folder.
 *
 * <p>Not responsible for reading content: the file-system layer compares cleartext through
 * {@link CleartextComparer}. Never deletes anything that differs from what stays.
 */
public final class ConflictResolver {
    static final int MAX_PASSES = 3;

    /** Compares two payload files by CLEARTEXT content (files: decrypted content; symlinks: decrypted target). The file-system layer implements it. */
    public interface CleartextComparer {
        boolean sameCleartext(Path payloadA, Path payloadB) throws IOException;
    }

    private final PathMapper mapper;
    private final DirectoryLister lister;
    private final EntryCopies entryCopies;
    private final InternalCopies internalCopies;
    private final PayloadlessEntries payloadless;
    private final boolean readOnly;

    public ConflictResolver(PathMapper mapper, DirectoryLister lister, CleartextComparer comparer, boolean readOnly) {
        this.mapper = mapper;
        this.lister = lister;
        this.readOnly = readOnly;
        PayloadComparison comparison = new PayloadComparison(comparer);
        this.internalCopies = new InternalCopies(mapper, comparison, readOnly);
        this.payloadless = new PayloadlessEntries(internalCopies, readOnly);
        this.entryCopies = new EntryCopies(mapper, new ConflictRecognition(mapper.names()), comparison, internalCopies, readOnly);
    }

    /**
     * Resolves every conflict in the listing (spec 6) and returns the folder's final entries.
     * Writable: changes the disk as the README table says, then re-lists. Read-only: writes nothing
     * and returns entries for the copies under the names they would get (entryPath = the copy's
     * on-disk path; for a decorated payload also {@link Entry#payloadCopy()}).
     */
    public List<Entry> resolve(Listing listing) throws IOException {
        if (!listing.hasConflicts()) {
            return listing.entries();
        }
        if (readOnly) {
            return pass(listing).entries();
        }
        Listing current = listing;
        for (int i = 0; i < MAX_PASSES && current.hasConflicts(); i++) {
            if (!pass(current).changed()) {
                break;
            }
            current = lister.list(current.dir());
        }
        return current.entries();
    }

    private ConflictState pass(Listing listing) throws IOException {
        ConflictState state = ConflictState.of(listing, mapper.names());
        entryCopies.resolve(listing.conflictCandidates(), state);
        payloadless.resolve(listing, state);
        internalCopies.resolve(listing, state);
        return state;
    }
}
