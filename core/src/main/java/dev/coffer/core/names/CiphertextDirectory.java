package dev.coffer.core.names;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * A cleartext folder's identity on disk: its directory ID, its storage folder, and the IDs of the
 * folders above it (to refuse an ID that loops back to an ancestor, spec 4).
 */
public record CiphertextDirectory(String dirId, Path storage, Set<String> lineage) {

    /** The child folder {@code childId} stored at {@code childStorage}, or null if the ID loops back. */
    public CiphertextDirectory child(String childId, Path childStorage) {
        if (lineage.contains(childId) || childId.equals(dirId)) {
            return null;
        }
        Set<String> l = new HashSet<>(lineage);
        l.add(dirId);
        return new CiphertextDirectory(childId, childStorage, Set.copyOf(l));
    }

    /** True if {@code id} is this folder's or an ancestor's ID. */
    public boolean isSelfOrAncestor(String id) {
        return dirId.equals(id) || lineage.contains(id);
    }
}
