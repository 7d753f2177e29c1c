package dev.coffer.core.health;

import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.ConflictNames;
import dev.coffer.core.names.DirIdFiles;
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
 * the move happened cannot be told for sure, so nothing with content is deleted: at worst a replaced
 * version comes back as a copy. An entry whose name does not decrypt, or that has no single payload,
 * can only go back under its own ciphertext name; if that is taken it stays set aside.
 *
 * <p>What has no content is removed: an entry folder holding only its name file (a cleanup that
 * stopped half-way), and a folder entry whose storage folder is gone while its name is taken (the
 * move that replaced that empty folder was done and had deleted its storage when it stopped; should
 * that storage folder ever arrive by sync, the orphan repair adopts it). Anything else in the holder
 * is left alone.
 *
 * <p>Not responsible for deciding when a holder is old enough to be touched ({@link Walk}).
 */
final class SetAsideEntries {
    static final String DECORATION = " (set aside by Coffer)";

    enum Destination {
        /** Back under its own ciphertext name. */
        OWN_NAME,
        /** Beside the entry that took its name, under {@link Placement#newName()}. */
        NEW_NAME,
        /** Removed: an entry folder holding its name file at most. */
        NOTHING_TO_KEEP,
        /** Removed: a folder entry whose storage folder is gone, its name taken. */
        POINTS_TO_NOTHING,
        /** Left where it is: it cannot go back. */
        NOWHERE,
        /** Left where it is: not Coffer's (no {@code .c9r} or {@code .c9s} name, or a {@code .c9s} that is no folder). */
        FOREIGN;

        boolean removed() {
            return this == NOTHING_TO_KEEP || this == POINTS_TO_NOTHING;
        }

        boolean placed() {
            return this == OWN_NAME || this == NEW_NAME;
        }
    }

    /** Where one item of a holder goes. */
    record Placement(Path entry, Destination to, String newName) {}

    private final VaultKeys keys;

    SetAsideEntries(VaultKeys keys) {
        this.keys = keys;
    }

    /**
     * Where each item in {@code holder}, which lies in {@code dir}'s storage folder, would go now.
     * Entries placed earlier in the list count as taking their names.
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
            if (!(shortened || name.endsWith(LongNames.C9R)) || shortened && !Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                plan.add(new Placement(entry, Destination.FOREIGN, null)); // never touched
                continue;
            }
            if (!Walk.holdsMore(entry)) {
                plan.add(new Placement(entry, Destination.NOTHING_TO_KEEP, null));
                continue;
            }
            String cleartext = cleartextName(entry, name, shortened, dir);
            boolean complete = typeOf(entry, shortened) != null;
            boolean nameTaken = cleartext != null && complete && taken.contains(cleartext);
            Placement p;
            if (!ownSlotTaken(holder, name) && !nameTaken) {
                p = new Placement(entry, Destination.OWN_NAME, null);
            } else if (pointsToNothing(entry)) {
                p = new Placement(entry, Destination.POINTS_TO_NOTHING, null);
            } else if (cleartext != null && complete) {
                p = new Placement(entry, Destination.NEW_NAME, ConflictNames.firstFreeConflictName(cleartext, DECORATION,
                        n -> taken.contains(n) || !provablyMissing(keys.mapper.slot(dir, n).entryPath())));
            } else {
                p = new Placement(entry, Destination.NOWHERE, null);
            }
            plan.add(p);
            if (p.to() == Destination.NEW_NAME) {
                taken.add(p.newName());
            } else if (p.to() == Destination.OWN_NAME && cleartext != null) {
                taken.add(cleartext);
            }
        }
        return plan;
    }

    /**
     * Carries out {@link #plan}, planned afresh: moves each entry back, never over anything (a name
     * taken meanwhile leaves the entry set aside), removes what has no content, then removes the
     * holder if that emptied it.
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
            switch (p.to()) {
                case OWN_NAME -> {
                    Path slot = holder.resolveSibling(entry.getFileName().toString());
                    if (provablyMissing(slot)) {
                        Files.move(entry, slot); // no REPLACE_EXISTING: what took the name meanwhile is not replaced
                    }
                }
                case NEW_NAME -> {
                    boolean shortened = entry.getFileName().toString().endsWith(LongNames.C9S);
                    EntryType type = typeOf(entry, shortened);
                    if (type != null) {
                        EntryMoves.move(entry, shortened, type, keys.mapper.slot(dir, p.newName())); // false: taken meanwhile, stays
                    }
                }
                case POINTS_TO_NOTHING -> {
                    Files.delete(entry.resolve(EntryType.DIRECTORY.payloadName()));
                    Files.deleteIfExists(entry.resolve(LongNames.NAME_FILE));
                    Files.delete(entry); // anything else that arrived in it meanwhile makes this fail: kept
                }
                case NOTHING_TO_KEEP -> {
                    Files.deleteIfExists(entry.resolve(LongNames.NAME_FILE));
                    Files.delete(entry); // anything else that arrived in it meanwhile makes this fail: kept
                }
                case NOWHERE, FOREIGN -> { }
            }
        }
        try {
            Files.deleteIfExists(holder);
        } catch (DirectoryNotEmptyException stays) {
            // An entry that could not go back stays set aside; the check reports it again.
        }
        AtomicFiles.syncDirectory(holder.getParent());
    }

    /**
     * True only if a stat of {@code p} says it does not exist: a stat that fails otherwise (EIO, a
     * flaky network store) must not let a move go over what is there.
     */
    private static boolean provablyMissing(Path p) {
        try {
            Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return false;
        } catch (NoSuchFileException missing) {
            return true;
        } catch (IOException unknown) {
            return false;
        }
    }

    /** True if the ciphertext name {@code name} is held in the holder's storage folder by anything but an empty entry. */
    private static boolean ownSlotTaken(Path holder, String name) throws IOException {
        Path slot = holder.resolveSibling(name);
        if (provablyMissing(slot)) {
            return false;
        }
        // An entry folder without content there is what a move built and stopped: the entry repair
        // removes it first, in the same run, by the same test (if it is not yet a day old, the
        // put-back, which never moves over anything, waits for it).
        return !Files.isDirectory(slot, LinkOption.NOFOLLOW_LINKS) || !EntryInspector.holdsNothing(slot, name.endsWith(LongNames.C9S));
    }

    /**
     * True if {@code entry} is a folder entry (a folder holding its valid pointer, perhaps a name file)
     * whose storage folder is certainly missing: a stat of it says so, not merely fails.
     */
    private boolean pointsToNothing(Path entry) throws IOException {
        Path pointer = entry.resolve(EntryType.DIRECTORY.payloadName());
        if (!Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS) || !Files.isRegularFile(pointer, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        for (String inner : DirectoryLister.sortedNames(entry)) {
            if (!inner.equals(LongNames.NAME_FILE) && !inner.equals(EntryType.DIRECTORY.payloadName())) {
                return false;
            }
        }
        String id;
        try {
            id = DirIdFiles.read(pointer);
        } catch (IOException unreadable) {
            return false;
        }
        if (id == null) {
            return false; // a damaged pointer: kept
        }
        try {
            Files.readAttributes(keys.mapper.storageOf(id), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return false;
        } catch (NoSuchFileException missing) {
            return true;
        } catch (IOException unknown) {
            return false; // cannot tell (unreadable, EIO): kept
        }
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
