package dev.coffer.core.health;

import dev.coffer.core.names.ConflictRecognition;
import dev.coffer.core.names.Decorations;
import dev.coffer.core.names.DirIdFiles;
import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.names.EntryType;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.names.Names;
import dev.coffer.core.names.PathMapper;
import dev.coffer.core.util.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Checks one entry of a storage folder (spec 4 to 6): that it has exactly one payload, what the
 * payload holds (file content through {@link ContentVerifier}, the symlink target, the folder
 * pointer, which {@link Walk} follows), decorated copies of internal files, and sync-conflict
 * copies of whole entries. Conflict copies and damaged entries are checked as thoroughly as
 * regular ones, so that nothing they hold goes unseen.
 */
final class EntryInspector {
    private final Walk walk;
    private final ContentVerifier verifier;
    private final SmallFiles small;

    EntryInspector(Walk walk, ContentVerifier verifier) {
        this.walk = walk;
        this.verifier = verifier;
        this.small = walk.small;
    }

    /**
     * Checks the entry at {@code p}, shown as {@code path}.
     *
     * @param resolvable true if the core's conflict resolution handles copies inside this entry
     *                   (a usable entry: safe, unique, complete name)
     * @param fromCopy   true if the entry is itself a sync-conflict copy
     */
    void payloads(Folder f, String path, Path p, boolean shortened, boolean resolvable, boolean fromCopy) throws IOException {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return;
        }
        if (!shortened && attrs.isRegularFile()) {
            file(path, p);
            return;
        }
        if (!attrs.isDirectory()) {
            walk.report(FindingKind.FOREIGN_FILE, path, p, "an entry that is neither a file nor a folder on disk; skipped", null);
            return;
        }
        List<EntryType> types = new ArrayList<>();
        List<String> copies = new ArrayList<>();
        for (String inner : DirectoryLister.sortedNames(p)) {
            EntryType t = payloadType(inner, shortened);
            if (t != null) {
                types.add(t);
            } else if (isDecoratedCopy(inner, shortened)) {
                copies.add(inner);
            } else if (shortened && inner.equals(LongNames.NAME_FILE)) {
                continue;
            } else if (inner.startsWith(AtomicFiles.TEMP_PREFIX)) {
                walk.temporaryFile(path, p.resolve(inner));
            } else if (inner.startsWith(".")) {
                walk.report(FindingKind.FOREIGN_FILE, Severity.INFO, null, p.resolve(inner), "a dot-file, ignored by readers; never deleted", null);
            } else {
                walk.report(FindingKind.FOREIGN_FILE, null, p.resolve(inner), "not part of the vault format; never deleted", null);
            }
        }
        // The listing resolves the decorated payloads of an entry folder without a payload (PayloadlessEntries).
        boolean resolvesCopies = resolvable && (fromCopy || types.size() == 1
                || types.isEmpty() && copies.stream().anyMatch(c -> c.endsWith(LongNames.C9R)));
        if (types.isEmpty() && holdsNothing(p, shortened)) {
            emptyEntry(path, p);
        } else if (types.isEmpty() && resolvesCopies && !fromCopy) {
            walk.report(FindingKind.INCOMPLETE_ENTRY, path, p, "no payload file, only sync-conflict copies of one (a move cut"
                    + " short, or a copy synced into an entry renamed elsewhere); repair resolves them as spec 6 says (each a new"
                    + " entry \"(Conflict k)\"), and removes the folder once nothing else is in it and it is a day old",
                    walk.repairs.resolveConflicts(f));
        } else if (types.size() != 1) {
            walk.report(FindingKind.INCOMPLETE_ENTRY, path, p, (types.isEmpty() ? "no payload file" : "several payload files " + types)
                    + " (spec 4); skipped by listings, never deleted", null);
        }
        for (EntryType t : types) {
            try {
                payload(f, path, p.resolve(t.payloadName()), t, fromCopy);
            } catch (IOException e) {
                walk.unreadable(path, p.resolve(t.payloadName()), e);
            }
        }
        for (String copy : copies) {
            try {
                // In a copy the listing resolves them whatever its payloads (EntryCopies); elsewhere only in a usable
                // entry, or a usable entry folder without a payload (PayloadlessEntries).
                decoratedCopy(f, path, p, copy, resolvesCopies, fromCopy);
            } catch (IOException e) {
                walk.unreadable(path, p.resolve(copy), e);
            }
        }
    }

    /** True if the entry folder holds no payload and nothing else but its {@code name.c9s} and temporary files. */
    static boolean holdsNothing(Path entry, boolean shortened) throws IOException {
        for (String inner : DirectoryLister.sortedNames(entry)) {
            boolean temporaryFile = inner.startsWith(AtomicFiles.TEMP_PREFIX)
                    && !Files.isDirectory(entry.resolve(inner), LinkOption.NOFOLLOW_LINKS); // a folder is somebody's content
            if (!(temporaryFile || shortened && inner.equals(LongNames.NAME_FILE))) {
                return false;
            }
        }
        return true;
    }

    /**
     * An entry folder that holds nothing: an interrupted mkdir or rmdir here, or a folder a sync
     * client has not filled yet. Like a temporary file (spec 6), it is removed only once it is a
     * day old, so that a sync in progress can still complete it.
     */
    void emptyEntry(String path, Path p) throws IOException {
        if (!small.changedInTheLastDay(p)) {
            walk.report(FindingKind.INCOMPLETE_ENTRY, path, p, "an entry folder holding no payload and nothing else, older than"
                    + " 24 hours (an interrupted folder creation or removal); repair removes it",
                    walk.repairs.removeEmptyEntry(p, DirectoryLister.sortedNames(p)));
        } else {
            walk.report(FindingKind.INCOMPLETE_ENTRY, Severity.INFO, path, p, "an entry folder holding no payload and nothing"
                    + " else (an interrupted folder creation or removal, or a sync in progress); removed by repair once it is a day"
                    + " old", null);
        }
    }

    /** A sync-conflict copy of a whole entry (spec 6 rules 1 to 3). */
    void conflictCopy(Folder f, ConflictRecognition.Copy copy, Path p, boolean shortened) throws IOException {
        String original = f.child(copy.cleartextName());
        boolean safe = !Names.isUnsafe(copy.cleartextName());
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return;
        }
        boolean complete = PathMapper.typeOf(p, shortened, attrs) != null;
        // The listing resolves the decorated payloads in a copy folder even without a payload of its own (EntryCopies).
        boolean holdsDecoratedPayloads = attrs.isDirectory() && DirectoryLister.decoratedCopies(p, DirectoryLister.sortedNames(p), shortened)
                .stream().anyMatch(c -> c.getFileName().toString().endsWith(LongNames.C9R));
        String shown = safe ? original : null;
        if (safe && complete) {
            walk.report(FindingKind.UNRESOLVED_CONFLICT, shown, p, "a sync-conflict copy (decoration \"" + Quoting.quote(copy.decoration())
                    + "\"); repair resolves it as spec 6 says", walk.repairs.resolveConflicts(f));
        } else if (safe && holdsDecoratedPayloads) {
            walk.report(FindingKind.UNRESOLVED_CONFLICT, shown, p, "a sync-conflict copy (decoration \"" + Quoting.quote(copy.decoration())
                    + "\") without a payload of its own, holding conflict copies of payloads; repair resolves those as spec 6"
                    + " says, and removes the folder once nothing else is in it and it is a day old", walk.repairs.resolveConflicts(f));
        } else {
            walk.report(FindingKind.UNRESOLVED_CONFLICT, shown, p, "a sync-conflict copy that is "
                    + (safe ? "incomplete" : "of an unsafe name") + "; left alone (spec 6)", null);
        }
        String copyPath = (safe ? original : f.child("[unsafe name]")) + " [conflict copy \"" + Quoting.quote(copy.decoration()) + "\"]";
        payloads(f, copyPath, p, shortened, safe && (complete || holdsDecoratedPayloads), true);
    }

    private void payload(Folder f, String path, Path payload, EntryType type, boolean fromCopy) throws IOException {
        if (!Files.isRegularFile(payload, LinkOption.NOFOLLOW_LINKS)) {
            walk.report(FindingKind.UNREADABLE, path, payload, "the payload file is no regular file; skipped, never deleted", null);
            return;
        }
        switch (type) {
            case FILE -> file(path, payload);
            case SYMLINK -> {
                if (!small.symlinkDecrypts(payload)) {
                    walk.report(FindingKind.DAMAGED_SYMLINK, path, payload,
                            "the target does not decrypt or is over 8 KiB; reading the link fails", null);
                }
            }
            case DIRECTORY -> {
                String id = DirIdFiles.read(payload);
                if (id == null) {
                    walk.report(FindingKind.DAMAGED_POINTER, path, payload, "dir.c9r holds " + Files.size(payload)
                            + " bytes, not a 36-byte lower-case UUID (spec 4); skipped, never deleted", null);
                } else {
                    walk.pointer(f, id, path, payload, fromCopy);
                }
            }
        }
    }

    private void file(String path, Path payload) {
        ContentVerifier.Problem problem;
        try {
            problem = verifier.verify(payload);
        } catch (IOException e) {
            walk.report(FindingKind.UNREADABLE, path, payload, "could not be read: " + Walk.reason(e), null);
            return;
        }
        if (problem != null && problem.headerOnly() && young(payload)) {
            walk.report(problem.kind(), Severity.INFO, path, payload, problem.detail() + "; written in the last 24 hours (a"
                    + " write or a sync may still be under way); emptied by repair once it is a day old", null);
        } else if (problem != null && problem.recovery() != null) {
            walk.report(problem.kind(), path, payload, problem.detail(), walk.repairs.recoverInterruptedWrite(path, payload, problem.recovery()));
        } else if (problem != null && problem.headerOnly()) {
            walk.report(problem.kind(), path, payload, problem.detail(), walk.repairs.emptyHeaderOnlyFile(payload));
        } else if (problem != null) {
            walk.report(problem.kind(), path, payload, problem.detail() + "; listed, never deleted", null);
        }
    }

    private boolean young(Path payload) {
        try {
            return !small.olderThanADay(payload);
        } catch (IOException e) {
            return true; // cannot tell: leave it
        }
    }

    private void decoratedCopy(Folder f, String path, Path entry, String copyName, boolean resolvable, boolean fromCopy)
            throws IOException {
        Path copy = entry.resolve(copyName);
        if (copyName.endsWith(LongNames.C9S)) {
            if (Arrays.equals(SmallFiles.read(copy), SmallFiles.read(entry.resolve(LongNames.NAME_FILE)))) {
                walk.report(FindingKind.UNRESOLVED_CONFLICT, path, copy, "a sync-conflict copy identical to name.c9s; repair removes it",
                        resolvable ? walk.repairs.resolveConflicts(f) : null);
            } else {
                walk.report(FindingKind.UNRESOLVED_CONFLICT, Severity.INFO, path, copy,
                        "a sync-conflict copy of name.c9s with other content; ignored, the folder's own name decides (spec 6)", null);
            }
            return;
        }
        walk.report(FindingKind.UNRESOLVED_CONFLICT, path, copy, "a sync-conflict copy of the entry's payload; "
                + (resolvable ? "repair resolves it as spec 6 says (identical: removed, else a new entry \"(Conflict k)\")"
                        : "left alone while the entry itself is unusable"),
                resolvable ? walk.repairs.resolveConflicts(f) : null);
        payload(f, path + " [" + copyName + "]", copy, decoratedType(copyName), true);
    }

    /** The type whose payload file {@code inner} is; {@code contents.c9r} counts only in shortened entries (README 7.17). */
    private static EntryType payloadType(String inner, boolean shortened) {
        for (EntryType t : EntryType.values()) {
            if (inner.equals(t.payloadName()) && (shortened || t != EntryType.FILE)) {
                return t;
            }
        }
        return null;
    }

    private static boolean isDecoratedCopy(String inner, boolean shortened) {
        if (shortened && inner.endsWith(LongNames.C9S) && Decorations.isDecoratedCopy(inner, "name")) {
            return true;
        }
        return inner.endsWith(LongNames.C9R) && decoratedTypeOrNull(inner, shortened) != null;
    }

    private static EntryType decoratedTypeOrNull(String inner, boolean shortened) {
        for (EntryType t : EntryType.values()) {
            String base = t.payloadName().substring(0, t.payloadName().length() - LongNames.C9R.length());
            if ((shortened || t != EntryType.FILE) && Decorations.isDecoratedCopy(inner, base)) {
                return t;
            }
        }
        return null;
    }

    private static EntryType decoratedType(String inner) {
        EntryType t = decoratedTypeOrNull(inner, true);
        if (t == null) {
            throw new IllegalArgumentException("not a decorated payload");
        }
        return t;
    }
}
