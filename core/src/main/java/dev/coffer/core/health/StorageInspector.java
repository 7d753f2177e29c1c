package dev.coffer.core.health;

import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.names.ConflictRecognition;
import dev.coffer.core.names.Decorations;
import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.names.Names;
import dev.coffer.core.util.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks one storage folder item by item (spec 4 and 6): its {@code dirid.c9r}, every name
 * (decrypts? safe? NFC? used twice?), {@code .c9s} folders and their {@code name.c9s}, sync-conflict
 * copies, temporary and foreign files. Hands each usable entry to {@link EntryInspector}. Conflict
 * copies are looked at after the regular entries, so that an original always claims its directory
 * ID before its copy does.
 */
final class StorageInspector {
    private final Walk walk;
    private final VaultKeys keys;
    private final EntryInspector entries;
    private final SmallFiles small;

    StorageInspector(Walk walk, ContentVerifier verifier) {
        this.walk = walk;
        this.keys = walk.keys;
        this.small = walk.small;
        this.entries = new EntryInspector(walk, verifier);
    }

    /** A check that runs after the folder's regular entries. */
    @FunctionalInterface
    private interface Check {
        void run() throws IOException;
    }

    /** A check of {@code item} deferred until the folder's regular entries are done. */
    private record Deferred(Path item, Check check) {}

    void inspect(Folder f) throws IOException {
        Path storage = f.dir().storage();
        List<String> names;
        try {
            names = DirectoryLister.sortedNames(storage);
        } catch (NoSuchFileException e) {
            return;
        }
        if (!names.contains(DirectoryLister.DIRID_FILE)) {
            walk.report(FindingKind.MISSING_DIRID, f.cleartextPath(), storage.resolve(DirectoryLister.DIRID_FILE),
                    "the storage folder has no dirid.c9r; repair writes it from the known directory ID",
                    walk.repairs.writeDirId(storage, f.dir().dirId()));
        }
        Set<String> taken = new HashSet<>();
        List<Deferred> copies = new ArrayList<>();
        for (String name : names) {
            // One item that cannot be read must not hide the items after it (their pointers would look orphaned).
            try {
                inspectItem(f, name, storage.resolve(name), taken, copies);
            } catch (IOException e) {
                walk.unreadable(null, storage.resolve(name), e);
            }
        }
        for (Deferred copy : copies) {
            try {
                copy.check().run();
            } catch (IOException e) {
                walk.unreadable(null, copy.item(), e);
            }
        }
    }

    private void inspectItem(Folder f, String name, Path p, Set<String> taken, List<Deferred> copies) throws IOException {
        if (name.equals(DirectoryLister.DIRID_FILE)) {
            checkDirId(f, p);
        } else if (name.startsWith(AtomicFiles.TEMP_PREFIX)) {
            walk.temporaryInStorage(f, p);
        } else if (name.startsWith(".")) {
            walk.report(FindingKind.FOREIGN_FILE, Severity.INFO, null, p, "a dot-file, ignored by readers; never deleted", null);
        } else if (name.endsWith(LongNames.C9R) && Decorations.isDecoratedCopy(name, "dirid")) {
            dirIdCopy(f, p);
        } else if (name.endsWith(LongNames.C9R)) {
            shortEntry(f, name, p, taken, copies);
        } else if (name.endsWith(LongNames.C9S) && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            longEntry(f, name, p, taken, copies);
        } else {
            walk.report(FindingKind.FOREIGN_FILE, null, p, "not part of the vault format; skipped, never deleted", null);
        }
    }

    private void shortEntry(Folder f, String name, Path p, Set<String> taken, List<Deferred> copies) throws IOException {
        String cleartext = decrypt(name.substring(0, name.length() - LongNames.C9R.length()), f.dir().dirId());
        if (cleartext != null) {
            named(f, cleartext, p, false, taken);
            return;
        }
        ConflictRecognition.Copy copy = keys.recognition.recognize(name, null, f.dir().dirId());
        if (copy != null) {
            copies.add(new Deferred(p, () -> entries.conflictCopy(f, copy, p, false)));
            return;
        }
        walk.report(FindingKind.UNDECRYPTABLE_NAME, null, p,
                "does not decrypt under this folder's ID and is no conflict copy; skipped, never deleted", null);
    }

    private void longEntry(Folder f, String name, Path p, Set<String> taken, List<Deferred> copies) throws IOException {
        String c9r = DirectoryLister.readNameFile(p);
        if (c9r == null || !c9r.endsWith(LongNames.C9R)) {
            boolean exists = Files.exists(p.resolve(LongNames.NAME_FILE), LinkOption.NOFOLLOW_LINKS);
            unnamed(f, name, p, exists ? FindingKind.DAMAGED_NAME_FILE : FindingKind.MISSING_NAME_FILE,
                    exists ? "name.c9s is not a valid long name (spec 4)" : "the shortened entry has no name.c9s");
            return;
        }
        if (!LongNames.shortened(c9r).equals(name)) {
            ConflictRecognition.Copy copy = keys.recognition.recognize(name, c9r, f.dir().dirId());
            if (copy != null) {
                copies.add(new Deferred(p, () -> entries.conflictCopy(f, copy, p, true)));
                return;
            }
            unnamed(f, name, p, FindingKind.MISMATCHED_NAME_FILE, "name.c9s does not hash to the folder's name");
            return;
        }
        String cleartext = decrypt(c9r.substring(0, c9r.length() - LongNames.C9R.length()), f.dir().dirId());
        if (cleartext == null) {
            walk.report(FindingKind.UNDECRYPTABLE_NAME, null, p,
                    "the name in name.c9s does not decrypt under this folder's ID; skipped, never deleted", null);
            return;
        }
        named(f, cleartext, p, true, taken);
    }

    /** A {@code .c9s} entry without a usable {@code name.c9s}: recover the name from a copy in the folder if one matches. */
    private void unnamed(Folder f, String name, Path p, FindingKind kind, String what) throws IOException {
        String recovered = small.recoverLongName(p, name);
        String cleartext = recovered == null ? null : decrypt(recovered.substring(0, recovered.length() - LongNames.C9R.length()),
                f.dir().dirId());
        boolean named = recovered != null && cleartext != null && !Names.isUnsafe(cleartext);
        if (EntryInspector.holdsNothing(p, true)) {
            // Nothing to lose or to name: an interrupted creation or removal of a long-named entry.
            entries.emptyEntry(named ? f.child(Names.nfc(cleartext)) : null, p);
            return;
        }
        if (named) {
            String path = f.child(Names.nfc(cleartext));
            walk.report(kind, path, p, what + "; a copy in the folder holds the right name, so repair restores it",
                    walk.repairs.writeNameFile(p, recovered));
            entries.payloads(f, path, p, true, false, false);
        } else {
            walk.report(kind, null, p, what + "; the name cannot be recovered, so the entry is skipped, never deleted", null);
            entries.payloads(f, f.child("[unnamed " + name + "]"), p, true, false, false);
        }
    }

    private void named(Folder f, String rawName, Path p, boolean shortened, Set<String> taken) throws IOException {
        if (Names.isUnsafe(rawName)) {
            walk.report(FindingKind.UNSAFE_NAME, null, p, "decrypts to the unsafe name \"" + Quoting.quote(rawName)
                    + "\" (spec 4); skipped, never deleted", null);
            entries.payloads(f, f.child("[unsafe name \"" + Quoting.quote(rawName) + "\"]"), p, shortened, false, false);
            return;
        }
        String name = Names.nfc(rawName);
        String path = f.child(name);
        boolean first = taken.add(name);
        if (!name.equals(rawName)) {
            boolean free = first && !Files.exists(keys.mapper.slot(f.dir(), name).entryPath(), LinkOption.NOFOLLOW_LINKS);
            walk.report(FindingKind.NON_NFC_NAME, path, p, "stored in a non-NFC form by another tool; listed under its NFC form"
                    + (free ? "; repair stores it under its NFC form (spec 4)" : ""), free ? walk.repairs.renameToNfc(f, name, p, shortened) : null);
        }
        if (!first) {
            walk.report(FindingKind.DUPLICATE_NAME, path, p,
                    "a second entry with this NFC name in one folder; skipped by listings, never deleted", null);
        }
        entries.payloads(f, path, p, shortened, first, false);
    }

    private void checkDirId(Folder f, Path p) throws IOException {
        String id = small.dirIdIn(p);
        if (f.dir().dirId().equals(id)) {
            return;
        }
        walk.report(FindingKind.DAMAGED_DIRID, f.cleartextPath(), p,
                "does not hold this folder's directory ID; repair rewrites it from the known ID",
                walk.repairs.writeDirId(f.dir().storage(), f.dir().dirId()));
    }

    private void dirIdCopy(Folder f, Path p) throws IOException {
        if (f.dir().dirId().equals(small.dirIdIn(p))) {
            walk.report(FindingKind.UNRESOLVED_CONFLICT, f.cleartextPath(), p,
                    "a sync-conflict copy identical to dirid.c9r; repair removes it (spec 6)", walk.repairs.resolveConflicts(f));
        } else {
            walk.report(FindingKind.UNRESOLVED_CONFLICT, Severity.INFO, f.cleartextPath(), p,
                    "a sync-conflict copy of dirid.c9r with other content; ignored and left alone (spec 6)", null);
        }
    }

    private String decrypt(String encName, String dirId) {
        try {
            return keys.names.decrypt(encName, dirId);
        } catch (AuthenticationFailedException e) {
            return null;
        }
    }
}
