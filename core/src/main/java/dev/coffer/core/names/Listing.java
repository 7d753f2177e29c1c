package dev.coffer.core.names;

import java.nio.file.Path;
import java.util.List;

/**
 * What one storage folder holds, decoded: its valid entries (NFC names, sorted by their on-disk
 * names), and the on-disk items that look like sync-conflict copies and need {@code ConflictResolver}.
 *
 * @param entries            valid entries
 * @param conflictCandidates {@code .c9r}/{@code .c9s} names in the storage folder whose names do not decode as-is
 * @param decoratedPayloads  decorated copies of internal files inside valid entry folders: payloads
 *                           ({@code dir (1).c9r}) and, in shortened entries, {@code name (1).c9s}
 * @param decoratedDirIds    decorated copies of {@code dirid.c9r} in the storage folder
 * @param payloadless        entry folders (not conflict copies) with no payload but decorated payloads
 */
public record Listing(CiphertextDirectory dir, List<Entry> entries, List<String> conflictCandidates,
                      List<DecoratedPayload> decoratedPayloads, List<Path> decoratedDirIds,
                      List<PayloadlessEntry> payloadless) {

    /**
     * A decorated copy of an internal file inside a valid entry: a payload ({@code dir (1).c9r},
     * {@code symlink (1).c9r}, {@code contents (1).c9r}) or, in a shortened entry, {@code name (1).c9s}.
     */
    public record DecoratedPayload(Entry entry, Path copy) {}

    /**
     * An entry folder named {@code name} that holds no payload but decorated payloads ({@code
     * <s>.c9s/contents (1).c9r} without {@code contents.c9r}): left by a move cut short, a move into
     * a short file entry, or a sync client adding a copy to an entry renamed on another device.
     * Not listed as an entry; its decorated copies ({@code decorated}, in byte order, {@code
     * name (1).c9s} included) are resolved as spec 6 says.
     */
    public record PayloadlessEntry(String name, Path entryPath, boolean shortened, List<Path> decorated) {}

    public boolean hasConflicts() {
        return !conflictCandidates.isEmpty() || !decoratedPayloads.isEmpty() || !decoratedDirIds.isEmpty()
                || !payloadless.isEmpty();
    }
}
