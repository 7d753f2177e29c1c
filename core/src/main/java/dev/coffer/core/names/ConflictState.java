package dev.coffer.core.names;

import dev.coffer.core.crypto.AuthenticationFailedException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one conflict-resolution pass over a folder knows (spec 6 and the README's reading of
 * "taken"): the entries by NFC name as they stand after the copies before were resolved, and the
 * taken names, which are the NFC names of every on-disk entry that decrypts (damaged and
 * incomplete ones included: their on-disk name is occupied) plus every name given in this pass.
 * Also collects the entries given in this pass, for read-only listings. Does no resolving itself.
 */
final class ConflictState {
    private final CiphertextDirectory dir;
    private final List<Entry> listed;
    private final Map<String, Entry> byName = new HashMap<>();
    private final Set<String> taken = new HashSet<>();
    private final Map<Entry, String> given = new HashMap<>();
    private boolean changed;

    private ConflictState(Listing listing) {
        this.dir = listing.dir();
        this.listed = listing.entries();
        for (Entry e : listed) {
            byName.put(e.name(), e);
            taken.add(e.name());
        }
    }

    /** The state at the start of a pass over {@code listing}; decrypts the names of the folder's unlisted entries. */
    static ConflictState of(Listing listing, NameCipher names) throws IOException {
        ConflictState state = new ConflictState(listing);
        Set<String> known = new HashSet<>(listing.conflictCandidates());
        for (Entry e : listing.entries()) {
            known.add(e.entryPath().getFileName().toString());
        }
        for (String fileName : DirectoryLister.sortedNames(listing.dir().storage())) {
            if (!fileName.startsWith(".") && !known.contains(fileName)) {
                String name = unlistedName(listing.dir(), fileName, names);
                if (name != null) {
                    state.taken.add(Names.nfc(name));
                }
            }
        }
        return state;
    }

    /** The cleartext name of an on-disk entry the lister did not list (damaged, incomplete, unsafe), or null. */
    private static String unlistedName(CiphertextDirectory dir, String fileName, NameCipher names) throws IOException {
        String c9r = fileName;
        if (fileName.endsWith(LongNames.C9S)) {
            c9r = DirectoryLister.readNameFile(dir.storage().resolve(fileName));
            if (c9r == null || !LongNames.shortened(c9r).equals(fileName)) {
                return null;
            }
        }
        if (!c9r.endsWith(LongNames.C9R)) {
            return null;
        }
        try {
            return names.decrypt(c9r.substring(0, c9r.length() - LongNames.C9R.length()), dir.dirId());
        } catch (AuthenticationFailedException e) {
            return null;
        }
    }

    CiphertextDirectory dir() {
        return dir;
    }

    /** The entry named {@code nfcName} as it stands now, or null. */
    Entry entry(String nfcName) {
        return byName.get(nfcName);
    }

    boolean isTaken(String nfcName) {
        return taken.contains(nfcName);
    }

    /** True if {@code slot}'s on-disk name is occupied by anything (an undecryptable item counts too). */
    static boolean occupied(Slot slot) {
        return Files.exists(slot.entryPath(), LinkOption.NOFOLLOW_LINKS);
    }

    /** Records that {@code entry} now holds (or, read-only, would hold) the name of {@code slot}. */
    void give(Slot slot, Entry entry) {
        taken.add(slot.name());
        byName.put(slot.name(), entry);
        given.put(entry, slot.entryPath().getFileName().toString());
    }

    void markChanged() {
        changed = true;
    }

    /** True if this pass wrote to the disk. */
    boolean changed() {
        return changed;
    }

    /** The listed entries plus those given in this pass, in the order of their (would-be) on-disk names. */
    List<Entry> entries() {
        List<Entry> all = new ArrayList<>(listed);
        all.addAll(given.keySet());
        all.sort((a, b) -> Arrays.compareUnsigned(onDiskName(a), onDiskName(b)));
        return all;
    }

    private byte[] onDiskName(Entry e) {
        String name = given.getOrDefault(e, e.entryPath().getFileName().toString());
        return name.getBytes(StandardCharsets.UTF_8);
    }
}
