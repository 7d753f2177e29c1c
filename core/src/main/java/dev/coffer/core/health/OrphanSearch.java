package dev.coffer.core.health;

import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.DirIdFiles;
import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.names.EntryType;
import dev.coffer.core.names.LongNames;
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
import java.util.regex.Pattern;

/**
 * Finds what no folder pointer reaches, after the walk from the root: every storage folder under
 * {@code d/} that was not visited is an orphan. An orphan whose {@code dirid.c9r} gives its ID is
 * walked like any folder (shown under {@code /LOST+FOUND/<id>}, where repair adopts it); orphans
 * that other orphans point to are reached through them, so only the top of an orphaned subtree is
 * adopted. An orphan with no usable {@code dirid.c9r} cannot have its names decrypted and is only
 * reported. Also reports anything under {@code d/} that is no storage folder.
 */
final class OrphanSearch {
    private static final Pattern PREFIX = Pattern.compile("[A-Z2-7]{2}");
    private static final Pattern REST = Pattern.compile("[A-Z2-7]{30}");

    private final Walk walk;
    private final VaultKeys keys;
    private final SmallFiles small;

    OrphanSearch(Walk walk) {
        this.walk = walk;
        this.keys = walk.keys;
        this.small = walk.small;
    }

    void run(StorageInspector inspector) throws IOException {
        Map<String, Path> known = new LinkedHashMap<>();
        for (Path storage : storageFolders()) {
            if (walk.wasVisited(storage)) {
                continue;
            }
            String id = small.dirIdIn(storage.resolve(DirectoryLister.DIRID_FILE));
            if (holdsNothing(storage)) {
                walk.report(FindingKind.ORPHAN_FOLDER, null, storage, (id == null ? "" : "directory ID " + id + ", ")
                        + "empty (nothing but dirid.c9r or temporary files), and no folder points to it (an interrupted folder "
                        + "creation or deletion); repair removes it", walk.repairs.removeEmptyOrphan(storage));
                continue;
            }
            if (id != null && !id.isEmpty() && keys.mapper.storageOf(id).equals(storage) && !walk.isClaimed(id)) {
                known.put(id, storage);
            } else {
                walk.report(FindingKind.ORPHAN_FOLDER, null, storage, "no folder points to it, and its dirid.c9r is missing or"
                        + " damaged, so its names cannot be decrypted; left alone", null);
            }
        }
        Set<String> referenced = new HashSet<>();
        for (Map.Entry<String, Path> e : known.entrySet()) {
            for (String id : pointersIn(e.getValue())) {
                if (!id.equals(e.getKey())) {
                    referenced.add(id);
                }
            }
        }
        List<String> order = new ArrayList<>();
        known.keySet().stream().filter(id -> !referenced.contains(id)).forEach(order::add);
        known.keySet().stream().filter(referenced::contains).forEach(order::add); // orphans that only point to each other
        for (String id : order) {
            Path storage = known.get(id);
            if (walk.wasVisited(storage) || walk.isClaimed(id)) {
                continue;
            }
            adopt(id, storage, inspector);
        }
    }

    /** True if {@code storage} holds no entry: only {@code dirid.c9r} and temporary files, or nothing. */
    static boolean holdsNothing(Path storage) throws IOException {
        return DirectoryLister.sortedNames(storage).stream()
                .allMatch(n -> n.equals(DirectoryLister.DIRID_FILE) || n.startsWith(AtomicFiles.TEMP_PREFIX));
    }

    private void adopt(String id, Path storage, StorageInspector inspector) throws IOException {
        List<String> content = DirectoryLister.sortedNames(storage);
        String shown = "/" + LostAndFound.NAME + "/" + id;
        walk.report(FindingKind.ORPHAN_FOLDER, null, storage, "directory ID " + id + ", " + (content.size() - 1)
                + " item(s): no folder points to it; repair adopts it as " + shown, walk.repairs.adoptOrphan(id));
        walk.claim(id, shown);
        walk.visitLater(new Folder(new CiphertextDirectory(id, storage, Set.of()), shown));
        walk.drain(inspector);
    }

    /** The directory IDs that pointers (and decorated pointer copies) in {@code storage} hold, without decrypting names. */
    private static List<String> pointersIn(Path storage) throws IOException {
        List<String> ids = new ArrayList<>();
        for (String name : DirectoryLister.sortedNames(storage)) {
            Path entry = storage.resolve(name);
            if (!(name.endsWith(LongNames.C9R) || name.endsWith(LongNames.C9S)) || !Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            for (String inner : DirectoryLister.sortedNames(entry)) {
                if (inner.equals(EntryType.DIRECTORY.payloadName()) || inner.startsWith("dir") && inner.endsWith(LongNames.C9R)
                        && !inner.startsWith("dirid")) {
                    String id = Files.isRegularFile(entry.resolve(inner), LinkOption.NOFOLLOW_LINKS) ? DirIdFiles.read(entry.resolve(inner)) : null;
                    if (id != null) {
                        ids.add(id);
                    }
                }
            }
        }
        return ids;
    }

    /** Every storage folder {@code d/XX/YYYYYYYYYYYYYYYYYYYYYYYYYYYYYY}; reports foreign items on the way. */
    private List<Path> storageFolders() throws IOException {
        List<Path> result = new ArrayList<>();
        if (!Files.isDirectory(keys.dataDir)) {
            return result;
        }
        for (String prefix : DirectoryLister.sortedNames(keys.dataDir)) {
            Path p = keys.dataDir.resolve(prefix);
            if (!PREFIX.matcher(prefix).matches() || !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                foreign(p, prefix);
                continue;
            }
            for (String rest : DirectoryLister.sortedNames(p)) {
                Path s = p.resolve(rest);
                if (REST.matcher(rest).matches() && Files.isDirectory(s, LinkOption.NOFOLLOW_LINKS)) {
                    result.add(s);
                } else {
                    foreign(s, rest);
                }
            }
        }
        return result;
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
