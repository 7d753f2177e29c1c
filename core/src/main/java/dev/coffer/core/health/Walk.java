package dev.coffer.core.health;

import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.vault.RootTemporaryFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The state of one health check: the findings and planned repairs so far, which directory IDs
 * are claimed by which folder, which storage folders were reached, and the folders still to
 * visit. Decides what a folder pointer leads to (spec 4: loops, IDs used twice, missing storage).
 *
 * <p>Not responsible for reading storage folders ({@link StorageInspector}) or finding orphans
 * ({@link OrphanSearch}).
 */
final class Walk {
    final VaultKeys keys;
    final Repairs repairs;
    final SmallFiles small;
    private final List<Pending> findings = new ArrayList<>();
    private boolean unreadable;
    private final Set<String> unreadablePaths = new HashSet<>();
    private final Map<String, String> claimed = new HashMap<>();
    private final Set<Path> visited = new HashSet<>();
    private final Deque<Folder> queue = new ArrayDeque<>();

    Walk(VaultKeys keys, Repairs repairs) {
        this.keys = keys;
        this.repairs = repairs;
        this.small = new SmallFiles(keys);
    }

    /** Records a finding with its kind's severity; {@code repair} null means not repairable. */
    void report(FindingKind kind, String cleartextPath, Path ciphertext, String detail, PlannedRepair repair) {
        report(kind, kind.severity(), cleartextPath, ciphertext, detail, repair);
    }

    void report(FindingKind kind, Severity severity, String cleartextPath, Path ciphertext, String detail, PlannedRepair repair) {
        findings.add(new Pending(new Finding(kind, severity, cleartextPath, keys.relative(ciphertext), detail, repair != null), repair));
        unreadable |= kind == FindingKind.UNREADABLE;
    }

    /** A finding and the repair it plans (null: none), until the report decides which repairs stand. */
    private record Pending(Finding finding, PlannedRepair repair) {}

    /** Reports {@code p} as unreadable; the check goes on with the rest. */
    void unreadable(String cleartextPath, Path p, IOException e) {
        if (!unreadablePaths.add(keys.relative(p))) {
            return; // the walk and the pointer scan both met it
        }
        report(FindingKind.UNREADABLE, cleartextPath, p, "could not be read: " + reason(e) + "; the check went on with the rest", null);
    }

    /** True if anything could not be read so far: the walk may have missed pointers. */
    boolean sawUnreadable() {
        return unreadable;
    }

    /** Marks {@code id} as the directory ID of the folder shown as {@code cleartextPath}. */
    void claim(String id, String cleartextPath) {
        claimed.put(id, cleartextPath);
    }

    boolean isClaimed(String id) {
        return claimed.containsKey(id);
    }

    /**
     * Follows the folder pointer at {@code pointerFile} in {@code parent} to directory {@code id}.
     *
     * @param fromCopy true for a pointer inside a sync-conflict copy: an ID already in use there is
     *                 the copy being identical, which the conflict finding covers
     */
    void pointer(Folder parent, String id, String cleartextPath, Path pointerFile, boolean fromCopy) {
        if (parent.dir().isSelfOrAncestor(id)) {
            report(FindingKind.DIRECTORY_CYCLE, cleartextPath, pointerFile,
                    "directory ID " + id + " leads back to an ancestor (spec 4); skipped, never deleted", null);
            return;
        }
        String owner = claimed.get(id);
        if (owner != null) {
            if (!fromCopy) {
                report(FindingKind.DUPLICATE_DIRECTORY_ID, cleartextPath, pointerFile, "directory ID " + id + " is already used by "
                        + owner + " (spec 4; a copy of a folder's entry, e.g. by a sync client): both show the same entries; repair"
                        + " gives this one a new ID and a copy of them, nothing deleted", repairs.separateDuplicate(cleartextPath, pointerFile, id));
            }
            return;
        }
        claimed.put(id, cleartextPath);
        Path storage = keys.mapper.storageOf(id);
        if (!Files.isDirectory(storage)) {
            report(FindingKind.DANGLING_POINTER, cleartextPath, pointerFile,
                    "its storage folder " + keys.relative(storage) + " is missing; repair creates it, empty",
                    repairs.createStorage(id));
            return;
        }
        queue.add(new Folder(parent.dir().child(id, storage), cleartextPath));
    }

    /** Queues a folder to visit (the root, or an orphan). */
    void visitLater(Folder folder) {
        queue.add(folder);
    }

    /** Visits every queued folder, and the folders their pointers lead to. */
    void drain(StorageInspector inspector) {
        while (!queue.isEmpty()) {
            Folder f = queue.poll();
            if (visited.add(f.dir().storage().toAbsolutePath().normalize())) {
                try {
                    inspector.inspect(f);
                } catch (IOException e) {
                    // The folder's listing failed (items fail one by one inside); the others are still checked.
                    unreadable(f.cleartextPath(), f.dir().storage(), e);
                }
            }
        }
    }

    /** True if the walk has inspected {@code storage}. */
    boolean wasVisited(Path storage) {
        return visited.contains(storage.toAbsolutePath().normalize());
    }

    /**
     * A left-over {@code .coffer-tmp-*} file: a note, removed by repair once it is a day old (spec 6).
     * A folder of that name here is not one of Coffer's (those are in storage folders): left alone.
     */
    void temporaryFile(String cleartextPath, Path p) throws IOException {
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            report(FindingKind.TEMPORARY_FILE, cleartextPath, p, "a folder with a temporary file's name where Coffer makes"
                    + " none; left alone, never deleted", null);
        } else if (small.olderThanADay(p)) {
            report(FindingKind.TEMPORARY_FILE, cleartextPath, p, "older than 24 hours; repair removes it (spec 6)",
                    repairs.removeTemporaryFile(p));
        } else {
            youngTemporary(cleartextPath, p);
        }
    }

    /**
     * A {@code .coffer-tmp-*} item in the vault root ({@link RootTemporaryFiles}): a note, removed by
     * repair once it is a day old, unless it is a complete masterkey file that no kept masterkey
     * file equals, which may be the only file a passphrase opens (a warning, never removed).
     */
    void temporaryInRoot(Path p) throws IOException {
        switch (RootTemporaryFiles.classify(keys.vaultDir, p)) {
            case FOLDER -> temporaryFile(null, p);
            case UNKEPT_MASTERKEY -> report(FindingKind.TEMPORARY_FILE, Severity.WARNING, null, p, "a complete masterkey"
                    + " file that differs from every masterkey file in the vault folder: a passphrase change that did not"
                    + " finish, or whose last step a crash undid. If your passphrase does not open the vault, this file"
                    + " may be the one it opens (rename it to masterkey.coffer after keeping a copy of that); never"
                    + " removed automatically", null);
            case DISPOSABLE -> {
                if (small.olderThanADay(p)) {
                    report(FindingKind.TEMPORARY_FILE, null, p, "older than 24 hours and no complete masterkey file that"
                            + " the vault folder does not also keep; repair removes it", repairs.removeRootTemporaryFile(p));
                } else {
                    youngTemporary(null, p);
                }
            }
        }
    }

    /**
     * A {@code .coffer-tmp-*} item in {@code f}'s storage folder: a temporary file, or a folder in
     * which a move set aside the entry it replaced (vault-format.md 4), left by an interrupted move.
     * After a day repair puts that entry back ({@link SetAsideEntries}): under its name if that is
     * free, else beside the entry that took it under a new name; nothing with content is deleted (whether the
     * move happened cannot be told for sure).
     */
    void temporaryInStorage(Folder f, Path p) throws IOException {
        String cleartextPath = f.cleartextPath();
        if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            temporaryFile(cleartextPath, p);
        } else if (!small.olderThanADay(p)) {
            youngTemporary(cleartextPath, p);
        } else {
            List<SetAsideEntries.Placement> plan = repairs.setAside().plan(p, f.dir());
            if (plan.stream().allMatch(e -> e.to().removed())) {
                report(FindingKind.TEMPORARY_FILE, cleartextPath, p, "what an interrupted move left of an entry it set aside,"
                        + " with no content (only name files, or nothing, or a replaced folder's pointer to its deleted"
                        + " storage); repair removes it", repairs.removeEmptySetAside(p, f.dir()));
            } else if (plan.stream().anyMatch(e -> e.to().placed())) {
                boolean renamed = plan.stream().anyMatch(e -> e.to() == SetAsideEntries.Destination.NEW_NAME);
                report(FindingKind.TEMPORARY_FILE, Severity.WARNING, cleartextPath, p, "an entry an interrupted move set"
                        + " aside, hidden from the folder; repair puts it back " + (renamed ? "beside the entry that took its"
                        + " name since, as a copy named \"... (set aside by Coffer)\"" : "under its name (free now)")
                        + "; nothing with content is deleted", repairs.putBackSetAside(p, f.dir()));
            } else if (plan.stream().allMatch(e -> e.to().removed() || e.to() == SetAsideEntries.Destination.FOREIGN
                    && e.entry().getFileName().toString().startsWith("."))) {
                boolean leftovers = plan.stream().anyMatch(e -> e.to().removed());
                report(FindingKind.TEMPORARY_FILE, cleartextPath, p, "a folder in which an interrupted move set an entry"
                        + " aside, holding dot-files that are not Coffer's; they are left alone, never deleted"
                        + (leftovers ? "; repair removes what the move left without content" : ""),
                        leftovers ? repairs.removeEmptySetAside(p, f.dir()) : null);
            } else {
                report(FindingKind.TEMPORARY_FILE, Severity.WARNING, cleartextPath, p, "what an interrupted move set aside"
                        + " cannot go back: an entry whose name was taken since and that has no other to go under (its name"
                        + " does not decrypt, or it is incomplete), or items that are not Coffer's (a sync client's copies?);"
                        + " hidden from the folder, left alone, never deleted (the content can be recovered from this"
                        + " ciphertext folder)", null);
            }
        }
    }

    /**
     * True if {@code entry} is or holds content: a short-named file itself, or an entry folder holding
     * anything but its {@code name.c9s} (a payload, or a sync client's copy of one).
     */
    static boolean holdsMore(Path entry) throws IOException {
        if (!Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
            return true;
        }
        for (String inner : DirectoryLister.sortedNames(entry)) {
            if (!inner.equals(LongNames.NAME_FILE)) {
                return true;
            }
        }
        return false;
    }

    private void youngTemporary(String cleartextPath, Path p) {
        report(FindingKind.TEMPORARY_FILE, cleartextPath, p,
                "younger than 24 hours (a write may still be under way on another device); left alone", null);
    }

    /** An I/O error's reason without the absolute paths that its message may hold. */
    static String reason(IOException e) {
        if (e instanceof java.nio.file.FileSystemException fse) {
            return e.getClass().getSimpleName() + (fse.getReason() == null ? "" : " (" + fse.getReason() + ")");
        }
        return e.getClass().getSimpleName();
    }

    /**
     * The report. If anything could not be read, a pointer may be in what was not read, so no
     * orphan is adopted or removed: that could give a folder a second pointer or delete a folder
     * something still points to.
     */
    HealthReport report() {
        Map<String, PlannedRepair> planned = new LinkedHashMap<>();
        List<Finding> result = new ArrayList<>();
        for (Pending p : findings) {
            PlannedRepair repair = p.repair();
            Finding f = p.finding();
            if (repair != null && unreadable && repair.step() == PlannedRepair.Step.ORPHANS) {
                f = new Finding(f.kind(), f.severity(), f.cleartextPath(), f.ciphertextPath(), f.detail()
                        + "; NOT repaired this time: part of the vault could not be read (see the UNREADABLE findings), and a"
                        + " pointer to this folder may be in what was not read", false);
                repair = null;
            }
            result.add(f);
            if (repair != null) {
                planned.putIfAbsent(repair.key(), repair);
            }
        }
        List<PlannedRepair> ordered = new ArrayList<>(planned.values());
        ordered.sort((a, b) -> a.step().compareTo(b.step()));
        return new HealthReport(result, ordered);
    }
}
