package dev.coffer.core.health;

import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.ConflictNames;
import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.names.Entry;
import dev.coffer.core.names.EntryMoves;
import dev.coffer.core.names.EntryType;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.names.Names;
import dev.coffer.core.names.PathMapper;
import dev.coffer.core.util.AtomicFiles;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Where the entries that an interrupted move set aside in a {@code .coffer-tmp-} folder go back
 * (vault-format.md 4): under their own name if no entry of the folder has that name (compared in
 * NFC, as readers list names), else beside the entry that took it, under the first free name
 * {@code <stem> (set aside by Coffer)<ext>}, {@code ... (2)}, as a sync-conflict copy is named. Whether
 * the move happened cannot be told for sure, so nothing is deleted: at worst a replaced version comes
 * back as a copy. An entry whose name does not decrypt, or that has no single payload, can only go
 * back under its own name; if that is taken it stays set aside.
 *
 * <p>Not responsible for deciding when a holder is old enough to be touched ({@link Walk}).
 */
final class SetAsideEntries {
    static final String DECORATION = " (set aside by Coffer)";

    /** Where one set-aside entry goes: its own name, a new cleartext name, or nowhere (null for both). */
    record Placement(Path entry, boolean ownName, String newName) {
        boolean placeable() {
            return ownName || newName != null;
        }
    }

    private final VaultKeys keys;

    SetAsideEntries(VaultKeys keys) {
        this.keys = keys;
    }

    /** True if an entry with content in {@code holder} holds anything but a name file (see {@link Walk#holdsMore}). */
    static boolean holdsContent(Path holder) throws IOException {
        for (String name : DirectoryLister.sortedNames(holder)) {
            if (Walk.holdsMore(holder.resolve(name))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Where each set-aside entry with content in {@code holder}, which lies in {@code dir}'s storage
     * folder, would go now. Entries placed earlier in the list count as taking their names.
     */
    List<Placement> plan(Path holder, CiphertextDirectory dir) throws IOException {
        Set<String> taken = new HashSet<>();
        for (Entry e : keys.lister.list(dir).entries()) {
            taken.add(e.name());
        }
        List<Placement> plan = new ArrayList<>();
        for (String name : DirectoryLister.sortedNames(holder)) {
            Path entry = holder.resolve(name);
            boolean shortened = name.endsWith(LongNames.C9S);
            if (!(shortened || name.endsWith(LongNames.C9R)) || !Walk.holdsMore(entry)) {
                continue;
            }
            String cleartext = cleartextName(entry, name, shortened, dir);
            boolean ownSlotFree = !Files.exists(holder.resolveSibling(name), LinkOption.NOFOLLOW_LINKS);
            Placement p;
            if (ownSlotFree && (cleartext == null || !taken.contains(cleartext))) {
                p = new Placement(entry, true, null);
            } else if (cleartext != null && typeOf(entry, shortened) != null) {
                p = new Placement(entry, false, ConflictNames.firstFreeConflictName(cleartext, DECORATION,
                        n -> taken.contains(n) || Files.exists(keys.mapper.slot(dir, n).entryPath(), LinkOption.NOFOLLOW_LINKS)));
            } else {
                p = new Placement(entry, false, null);
            }
            plan.add(p);
            if (p.newName() != null) {
                taken.add(p.newName());
            } else if (p.ownName() && cleartext != null) {
                taken.add(cleartext);
            }
        }
        return plan;
    }

    /**
     * Moves each set-aside entry in {@code holder} to where {@link #plan} says, planned afresh; never
     * over anything (a name taken meanwhile leaves the entry set aside); then removes the holder if
     * that emptied it.
     */
    void putBack(Path holder, CiphertextDirectory dir) throws IOException {
        List<Placement> plan;
        try {
            plan = plan(holder, dir);
        } catch (NoSuchFileException gone) {
            return;
        }
        for (Placement p : plan) {
            Path entry = p.entry();
            if (p.ownName()) {
                Path slot = holder.resolveSibling(entry.getFileName().toString());
                if (!Files.exists(slot, LinkOption.NOFOLLOW_LINKS)) {
                    Files.move(entry, slot); // no REPLACE_EXISTING: what took the name meanwhile is not replaced
                }
            } else if (p.newName() != null) {
                boolean shortened = entry.getFileName().toString().endsWith(LongNames.C9S);
                EntryType type = typeOf(entry, shortened);
                if (type != null) {
                    EntryMoves.move(entry, shortened, type, keys.mapper.slot(dir, p.newName())); // false: taken meanwhile, stays
                }
            }
        }
        try {
            Files.deleteIfExists(holder);
        } catch (DirectoryNotEmptyException stays) {
            // An entry that could not go back stays set aside; the check reports it again.
        }
        AtomicFiles.syncDirectory(holder.getParent());
    }

    /** The NFC cleartext name of a set-aside entry, or null if it has none that a reader would list. */
    private String cleartextName(Path entry, String name, boolean shortened, CiphertextDirectory dir) throws IOException {
        String c9r = name;
        if (shortened) {
            c9r = DirectoryLister.readNameFile(entry);
            if (c9r == null || !c9r.endsWith(LongNames.C9R) || !LongNames.shortened(c9r).equals(name)) {
                return null;
            }
        }
        try {
            String cleartext = keys.names.decrypt(c9r.substring(0, c9r.length() - LongNames.C9R.length()), dir.dirId());
            return Names.isUnsafe(cleartext) ? null : Names.nfc(cleartext);
        } catch (AuthenticationFailedException e) {
            return null;
        }
    }

    private static EntryType typeOf(Path entry, boolean shortened) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        return PathMapper.typeOf(entry, shortened, attrs);
    }
}
