package dev.coffer.core.health;

import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.util.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds what no folder pointer reaches, after the walk from the root: every storage folder under
 * {@code d/} that was not visited is an orphan. Before deciding anything it finds every pointer on
 * disk ({@link PointerIndex}), including those the walk cannot follow (names that do not decrypt,
 * orphans without {@code dirid.c9r}), so that an orphan something still points to is never adopted
 * (that would make two pointers to one folder) nor removed. An orphan nothing points to and whose
 * {@code dirid.c9r} gives its ID is walked like any folder (shown under {@code /LOST+FOUND/<id>},
 * where repair adopts it); orphans that adopted orphans point to are reached through them, so only
 * the top of an orphaned subtree is adopted. An orphan changed in the last 24 hours (judged by the
 * newest item inside it) is only a note: a sync client may still be filling it or its pointer.
 * Also reports anything under {@code d/} that is no storage folder.
 */
final class OrphanSearch {
    private final Walk walk;
    private final VaultKeys keys;
    private final SmallFiles small;

    OrphanSearch(Walk walk) {
        this.walk = walk;
        this.keys = walk.keys;
        this.small = walk.small;
    }

    /** What the search knows about one unreached storage folder. */
    private record Orphan(Path storage, String id, List<String> names, boolean empty, boolean young, List<Path> referrers) {
        boolean known(VaultKeys keys, Walk walk) {
            return id != null && !id.isEmpty() && keys.mapper.storageOf(id).equals(storage) && !walk.isClaimed(id);
        }
    }

    void run(StorageInspector inspector) throws IOException {
        reportForeign();
        PointerIndex pointers = PointerIndex.scan(keys, (p, e) -> walk.unreadable(null, p, e));
        Map<Path, Orphan> orphans = new LinkedHashMap<>();
        for (Path storage : PointerIndex.storageFolders(keys, (p, e) -> { })) {
            if (walk.wasVisited(storage)) {
                continue;
            }
            try {
                List<String> names = DirectoryLister.sortedNames(storage);
                orphans.put(norm(storage), new Orphan(storage, small.dirIdIn(storage.resolve(DirectoryLister.DIRID_FILE)), names,
                        holdsNothing(storage, names), small.changedInTheLastDay(storage), pointers.referrersOf(storage)));
            } catch (IOException e) {
                walk.unreadable(null, storage, e);
            }
        }
        Set<Path> blocked = blocked(orphans);
        List<Orphan> toAdopt = new ArrayList<>();
        for (Orphan o : orphans.values()) {
            if (!o.referrers().isEmpty()) {
                if (o.referrers().stream().anyMatch(OrphanSearch::inSetAsideEntry)) {
                    walk.report(FindingKind.ORPHAN_FOLDER, Severity.INFO, null, o.storage(), idText(o) + "the folder an"
                            + " interrupted move set aside (" + keys.relative(o.referrers().get(0)) + ") points to it; left alone"
                            + " until repair puts that folder back", null);
                } else if (blocked.contains(norm(o.storage())) && !reachedFromBlocked(o, orphans, blocked)) { // only the top is reported
                    walk.report(FindingKind.ORPHAN_FOLDER, null, o.storage(), idText(o) + "no folder the check can follow points to it,"
                            + " but " + keys.relative(o.referrers().get(0)) + " holds its ID (a pointer whose name does not decrypt, or"
                            + " inside an orphan that is left alone); adopting or removing it could give it a second pointer; left alone",
                            null);
                }
                continue; // otherwise reached through the adopted orphan that points to it
            }
            if (o.young()) {
                walk.report(FindingKind.ORPHAN_FOLDER, Severity.INFO, null, o.storage(), idText(o) + "no folder points to it, but"
                        + " something in it changed in the last 24 hours (a sync client may still be delivering it or its"
                        + " pointer); left for later with everything below it, repaired once it is a day old", null);
            } else if (o.empty()) {
                walk.report(FindingKind.ORPHAN_FOLDER, null, o.storage(), idText(o)
                        + "empty (nothing but dirid.c9r or temporary files), and no folder points to it (an interrupted folder "
                        + "creation or deletion); repair removes it", walk.repairs.removeEmptyOrphan(o.storage(), o.names()));
            } else if (o.known(keys, walk)) {
                toAdopt.add(o);
            } else {
                walk.report(FindingKind.ORPHAN_FOLDER, null, o.storage(), "no folder points to it, and its dirid.c9r is missing or"
                        + " damaged, so its names cannot be decrypted; left alone", null);
            }
        }
        for (Orphan o : toAdopt) {
            adopt(o, inspector);
        }
        // Orphans that only point to each other (a cycle): adopt one, the rest are reached through it.
        for (Orphan o : orphans.values()) {
            if (!o.referrers().isEmpty() && !blocked.contains(norm(o.storage())) && !walk.wasVisited(o.storage())
                    && o.known(keys, walk)) {
                if (o.young()) {
                    walk.report(FindingKind.ORPHAN_FOLDER, Severity.INFO, null, o.storage(), idText(o) + "only other orphans point"
                            + " to it, and something in it changed in the last 24 hours; left for later", null);
                } else {
                    adopt(o, inspector);
                }
            }
        }
    }

    /**
     * The orphans that must stay as they are because a pointer the check cannot follow reaches
     * them: from a reached folder (its name does not decrypt), from an orphan that is not adopted
     * (no usable {@code dirid.c9r}, or young), or from such an orphan's subtree.
     */
    private Set<Path> blocked(Map<Path, Orphan> orphans) {
        Set<Path> blocked = new HashSet<>();
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Orphan o : orphans.values()) {
                Path key = norm(o.storage());
                if (blocked.contains(key)) {
                    continue;
                }
                for (Path pointer : o.referrers()) {
                    Orphan from = orphans.get(PointerIndex.storageOfPointer(pointer));
                    if (from == null || !from.known(keys, walk) || from.young() || blocked.contains(norm(from.storage()))) {
                        blocked.add(key);
                        changed = true;
                        break;
                    }
                }
            }
        }
        return blocked;
    }

    /** True if an orphan that is itself left alone (blocked or young) points to {@code o}: {@code o} is part of its subtree. */
    private static boolean reachedFromBlocked(Orphan o, Map<Path, Orphan> orphans, Set<Path> blocked) {
        return o.referrers().stream().map(PointerIndex::storageOfPointer).anyMatch(s -> orphans.containsKey(s) && (blocked.contains(s) || orphans.get(s).young()));
    }

    /** True for a pointer file inside a {@code .coffer-tmp-} folder: an entry a move set aside. */
    private static boolean inSetAsideEntry(Path pointer) {
        return pointer.getParent().getParent().getFileName().toString().startsWith(AtomicFiles.TEMP_PREFIX);
    }

    private static String idText(Orphan o) {
        return o.id() == null ? "" : "directory ID " + o.id() + ", ";
    }

    private static Path norm(Path p) {
        return p.toAbsolutePath().normalize();
    }

    /**
     * True if a storage folder holding {@code names} holds no entry: only {@code dirid.c9r} and
     * temporary files, or nothing (a {@code .coffer-tmp-} folder holds an entry a move set aside).
     */
    static boolean holdsNothing(Path storage, List<String> names) {
        return names.stream().allMatch(n -> n.equals(DirectoryLister.DIRID_FILE) || n.startsWith(AtomicFiles.TEMP_PREFIX)
                && !Files.isDirectory(storage.resolve(n), LinkOption.NOFOLLOW_LINKS));
    }

    private void adopt(Orphan o, StorageInspector inspector) {
        String shown = "/" + LostAndFound.NAME + "/" + o.id();
        walk.report(FindingKind.ORPHAN_FOLDER, null, o.storage(), "directory ID " + o.id() + ", " + (o.names().size() - 1)
                + " item(s): no folder points to it; repair adopts it as " + shown, walk.repairs.adoptOrphan(o.id()));
        walk.claim(o.id(), shown);
        walk.visitLater(new Folder(new CiphertextDirectory(o.id(), o.storage(), Set.of()), shown));
        walk.drain(inspector);
    }

    /** Reports the items under {@code d/} that are no storage folder. */
    private void reportForeign() throws IOException {
        if (!Files.isDirectory(keys.dataDir)) {
            return;
        }
        for (String prefix : DirectoryLister.sortedNames(keys.dataDir)) {
            Path p = keys.dataDir.resolve(prefix);
            if (!PointerIndex.PREFIX.matcher(prefix).matches() || !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                foreign(p, prefix);
                continue;
            }
            try {
                for (String rest : DirectoryLister.sortedNames(p)) {
                    Path s = p.resolve(rest);
                    if (!PointerIndex.REST.matcher(rest).matches() || !Files.isDirectory(s, LinkOption.NOFOLLOW_LINKS)) {
                        foreign(s, rest);
                    }
                }
            } catch (IOException e) {
                walk.unreadable(null, p, e);
            }
        }
    }

    private void foreign(Path p, String name) throws IOException {
        if (name.startsWith(AtomicFiles.TEMP_PREFIX)) {
            walk.temporaryFile(null, p);
        } else if (name.startsWith(".")) {
            walk.report(FindingKind.FOREIGN_FILE, Severity.INFO, null, p, "a dot-file, ignored by readers; never deleted", null);
        } else {
            walk.report(FindingKind.FOREIGN_FILE, null, p, "not a storage folder of the vault format; never deleted", null);
        }
    }
}
