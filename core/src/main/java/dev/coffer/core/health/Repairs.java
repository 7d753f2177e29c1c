package dev.coffer.core.health;

import dev.coffer.core.content.SectorLayout;
import dev.coffer.core.health.PlannedRepair.Step;
import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.ConflictResolver;
import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.names.EntryMoves;
import dev.coffer.core.names.EntryType;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.names.PathMapper;
import dev.coffer.core.nio.CleartextComparison;
import dev.coffer.core.util.AtomicFiles;
import dev.coffer.core.vault.RootTemporaryFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans and makes the health check's repairs. Each change is one the format already knows how to
 * make safely: metadata files are written atomically ({@link AtomicFiles}: temporary file, fsync,
 * rename, fsync of the folder), folders are created in the order of spec 4 (storage folder and
 * {@code dirid.c9r} first, pointer last), and conflicts are resolved by the core's own
 * {@link ConflictResolver}. Nothing that differs from what stays is ever deleted; file contents are
 * never touched, except that an interrupted write is cut back to its readable part after a copy of
 * the file is kept ({@link InterruptedWriteRepair}). Every repair re-checks the disk before it changes
 * it, so running it twice is harmless.
 */
final class Repairs {
    private final VaultKeys keys;
    private final LostAndFound lostAndFound;
    private final InterruptedWriteRepair interruptedWrites;
    private final DuplicateDirectoryRepair duplicates;
    private final SetAsideEntries setAside;
    private PointerIndex pointers;
    private final List<String> notes = new ArrayList<>();

    /** Repairs for planning only: none of them can be applied through this instance's file system. */
    Repairs(VaultKeys keys) {
        this(keys, null);
    }

    /** @param opener opens the vault as a writable file system, for repairs that go through the format code */
    Repairs(VaultKeys keys, InterruptedWriteRepair.FileSystemOpener opener) {
        this.keys = keys;
        this.lostAndFound = new LostAndFound(keys, this);
        this.interruptedWrites = new InterruptedWriteRepair(keys, opener);
        this.duplicates = new DuplicateDirectoryRepair(keys, this);
        this.setAside = new SetAsideEntries(keys);
    }

    /** Adds {@code note} to what the repairs made tell people (a damaged file copied as it is). */
    void note(String note) {
        notes.add(note);
    }

    /** What the repairs made so far tell people, in order. */
    List<String> notes() {
        return List.copyOf(notes);
    }

    /** Closes what the repairs opened (the vault file system). */
    void close() throws IOException {
        interruptedWrites.close();
    }

    PlannedRepair writeDirId(Path storage, String id) {
        return new PlannedRepair(Step.STORAGE, "dirid:" + storage, "write " + keys.relative(storage.resolve(DirectoryLister.DIRID_FILE))
                + " for its known directory ID", r -> r.doWriteDirId(storage, id));
    }

    PlannedRepair createStorage(String id) {
        Path storage = keys.mapper.storageOf(id);
        return new PlannedRepair(Step.STORAGE, "storage:" + id, "create the missing storage folder " + keys.relative(storage)
                + " (an empty folder)", r -> r.doCreateStorage(id));
    }

    PlannedRepair writeNameFile(Path entry, String c9rName) {
        return new PlannedRepair(Step.NAMES, "name:" + entry, "write " + keys.relative(entry.resolve(LongNames.NAME_FILE))
                + " with the name recovered from a copy in that folder", r -> r.doWriteNameFile(entry, c9rName));
    }

    PlannedRepair resolveConflicts(Folder folder) {
        return new PlannedRepair(Step.CONFLICTS, "conflicts:" + folder.dir().dirId(), "resolve the sync conflicts in "
                + folder.cleartextPath() + " (" + keys.relative(folder.dir().storage()) + ") as spec 6 says",
                r -> r.doResolveConflicts(folder.dir()));
    }

    PlannedRepair adoptOrphan(String id) {
        return new PlannedRepair(Step.ORPHANS, "orphan:" + id, "adopt the orphan storage folder "
                + keys.relative(keys.mapper.storageOf(id)) + " as /" + LostAndFound.NAME + "/" + id,
                r -> r.lostAndFound.adopt(id));
    }

    /** @param vetted the names seen in the folder at check time: only these are deleted */
    PlannedRepair removeEmptyOrphan(Path storage, List<String> vetted) {
        List<String> names = List.copyOf(vetted);
        return new PlannedRepair(Step.ORPHANS, "orphan:" + storage, "remove the empty orphan storage folder "
                + keys.relative(storage), r -> r.doRemoveEmptyOrphan(storage, names));
    }

    PlannedRepair renameToNfc(Folder folder, String nfcName, Path entry, boolean shortened) {
        return new PlannedRepair(Step.NAMES, "nfc:" + entry, "store " + keys.relative(entry) + " under the encryption of its NFC name",
                r -> r.doRenameToNfc(folder, nfcName, entry, shortened));
    }

    PlannedRepair emptyHeaderOnlyFile(Path file) {
        return new PlannedRepair(Step.FILES, "empty:" + file, "empty " + keys.relative(file)
                + ", which holds only the header of an interrupted first write", r -> r.doEmptyHeaderOnlyFile(file));
    }

    PlannedRepair separateDuplicate(String cleartextPath, Path pointerFile, String id) {
        return new PlannedRepair(Step.DUPLICATE_IDS, "duplicate:" + pointerFile, "give " + cleartextPath + " ("
                + keys.relative(pointerFile) + ") a new directory ID and a copy of the contents it shares with the other folder",
                r -> r.duplicates.separate(cleartextPath, pointerFile, id));
    }

    PlannedRepair recoverInterruptedWrite(String cleartextPath, Path file, InterruptedWrites.Recovery recovery) {
        String what = recovery.oldEnd() ? "cut " + keys.relative(file) + " back to the file as it was before the interrupted write ("
                + recovery.readable() + " bytes)" : "truncate " + cleartextPath + " (" + keys.relative(file) + ") to its "
                + recovery.readable() + " readable bytes";
        return new PlannedRepair(Step.INTERRUPTED_WRITES, "interrupted:" + file, what + ", after keeping a copy of the ciphertext"
                + " file as " + RepairBackups.FOLDER + "/" + keys.relative(file) + ".<hash>.bkup",
                r -> r.interruptedWrites.recover(cleartextPath, file, recovery));
    }

    /** @param vetted the names seen in the entry folder at check time: only these are deleted */
    PlannedRepair removeEmptyEntry(Path entry, List<String> vetted) {
        List<String> names = List.copyOf(vetted);
        return new PlannedRepair(Step.FILES, "entry:" + entry, "remove the empty entry folder " + keys.relative(entry),
                r -> r.doRemoveEmptyEntry(entry, names));
    }

    PlannedRepair removeTemporaryFile(Path file) {
        return new PlannedRepair(Step.TEMPORARY_FILES, "temp:" + file, "remove the left-over temporary file " + keys.relative(file),
                r -> Files.deleteIfExists(file));
    }

    /**
     * Removes a root temporary file if it still may go ({@link RootTemporaryFiles#removeIfDisposable}:
     * under the passphrase change's lock, checked again); one that became a masterkey file no kept
     * file equals is left and the repair reported as failed.
     */
    PlannedRepair removeRootTemporaryFile(Path file) {
        return new PlannedRepair(Step.TEMPORARY_FILES, "temp:" + file, "remove the left-over temporary file " + keys.relative(file),
                r -> {
                    if (!RootTemporaryFiles.removeIfDisposable(keys.vaultDir, file)) {
                        throw new IOException("left alone: it now holds a masterkey file the vault folder does not keep");
                    }
                });
    }

    /**
     * The folder in which an interrupted move set aside the entry it replaced (vault-format.md 4):
     * each entry in it goes back where {@link SetAsideEntries} says, planned again now (under its
     * name if free, else as a copy); one with nowhere to go stays, and so does the folder then.
     * Nothing with content is deleted. Gone meanwhile: nothing to do.
     */
    PlannedRepair putBackSetAside(Path holder, CiphertextDirectory dir) {
        return new PlannedRepair(Step.TEMPORARY_FILES, "temp:" + holder, "put back the entry an interrupted move set aside in "
                + keys.relative(holder) + ": under its name if that is free, else as a copy beside the entry that took it",
                r -> setAside.putBack(holder, dir));
    }

    /** Where set-aside entries go back. */
    SetAsideEntries setAside() {
        return setAside;
    }

    /**
     * What an interrupted move left of an entry it set aside, without content: name files, the entry
     * folders holding only them, a replaced folder's pointer to its deleted storage, and the folder.
     * Planned again now: anything with content keeps it ({@link SetAsideEntries}).
     */
    PlannedRepair removeEmptySetAside(Path holder, CiphertextDirectory dir) {
        return new PlannedRepair(Step.TEMPORARY_FILES, "temp:" + holder, "remove what an interrupted move left in "
                + keys.relative(holder), r -> setAside.putBack(holder, dir));
    }

    private void doWriteDirId(Path storage, String id) throws IOException {
        Files.createDirectories(storage);
        byte[] content = id.isEmpty() ? new byte[0] : keys.content.encryptSmall(id.getBytes(StandardCharsets.US_ASCII));
        AtomicFiles.write(storage.resolve(DirectoryLister.DIRID_FILE), content);
    }

    void doCreateStorage(String id) throws IOException {
        Path storage = keys.mapper.storageOf(id);
        if (Files.isRegularFile(storage.resolve(DirectoryLister.DIRID_FILE))) {
            return;
        }
        Files.createDirectories(storage);
        doWriteDirId(storage, id);
        AtomicFiles.syncDirectory(storage.getParent());
        AtomicFiles.syncDirectory(keys.dataDir);
    }

    private void doWriteNameFile(Path entry, String c9rName) throws IOException {
        if (!LongNames.shortened(c9rName).equals(entry.getFileName().toString())) {
            throw new IOException("the recovered name does not match " + keys.relative(entry));
        }
        AtomicFiles.write(entry.resolve(LongNames.NAME_FILE), c9rName.getBytes(StandardCharsets.US_ASCII));
    }

    /** Moves the entry to the slot of its NFC name, unless that slot is taken (then it stays as it is). */
    private void doRenameToNfc(Folder folder, String nfcName, Path entry, boolean shortened) throws IOException {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return;
        }
        EntryType type = PathMapper.typeOf(entry, shortened, attrs);
        if (type == null) {
            throw new IOException(keys.relative(entry) + " is incomplete; left as it is");
        }
        if (!EntryMoves.move(entry, shortened, type, keys.mapper.slot(folder.dir(), nfcName))) {
            throw new IOException("the NFC name of " + keys.relative(entry) + " is taken; left as it is");
        }
        AtomicFiles.syncDirectory(folder.dir().storage());
    }

    /** Removes an entry folder only while it still holds nothing but the names vetted at check time. */
    private void doRemoveEmptyEntry(Path entry, List<String> vetted) throws IOException {
        if (!Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        removeVetted(entry, vetted);
        AtomicFiles.syncDirectory(entry.getParent());
    }

    /**
     * Deletes the {@code vetted} names in {@code folder}, then the folder. Refuses if anything else is
     * in it; anything that appears meanwhile (a sync client's file) makes the final delete fail, so
     * it is never deleted.
     */
    private void removeVetted(Path folder, List<String> vetted) throws IOException {
        List<String> now = DirectoryLister.sortedNames(folder);
        if (!vetted.containsAll(now)) {
            throw new IOException(keys.relative(folder) + " holds something new since the check; left alone");
        }
        for (String name : vetted) {
            Files.deleteIfExists(folder.resolve(name));
        }
        try {
            Files.delete(folder);
        } catch (DirectoryNotEmptyException e) {
            throw new IOException("something new appeared in " + keys.relative(folder) + " during the repair; left alone", e);
        }
    }

    /** Truncates a file to 0 bytes (a valid empty file) only while it is still exactly one header long. */
    private void doEmptyHeaderOnlyFile(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            if (ch.size() != SectorLayout.HEADER) {
                throw new IOException(keys.relative(file) + " changed since the check; left as it is");
            }
            ch.truncate(0);
            ch.force(true);
        }
    }

    private void doResolveConflicts(CiphertextDirectory dir) throws IOException {
        if (!Files.isDirectory(dir.storage())) {
            return;
        }
        ConflictResolver resolver = new ConflictResolver(keys.mapper, keys.lister, new CleartextComparison(keys.content), false);
        resolver.resolve(keys.lister.list(dir));
    }

    /**
     * Removes an orphan storage folder only while it still holds nothing but the names vetted at
     * check time and no pointer on disk holds its ID (one may have arrived by sync since the check).
     */
    private void doRemoveEmptyOrphan(Path storage, List<String> vetted) throws IOException {
        if (!Files.isDirectory(storage, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        List<Path> referrers = pointers().referrersOf(storage);
        if (!referrers.isEmpty()) {
            throw new IOException(keys.relative(storage) + " is no orphan any more: " + keys.relative(referrers.get(0))
                    + " points to it; left alone");
        }
        removeVetted(storage, vetted);
        Path parent = storage.getParent();
        AtomicFiles.syncDirectory(parent);
        try {
            Files.delete(parent);
        } catch (DirectoryNotEmptyException e) {
            // other storage folders share the prefix folder
        }
        AtomicFiles.syncDirectory(keys.dataDir);
    }

    /**
     * Every pointer on disk, scanned once per repair run when the first orphan repair needs it
     * (after conflicts are resolved), and kept up to date with the pointers adoption writes.
     */
    PointerIndex pointers() throws IOException {
        if (pointers == null) {
            pointers = PointerIndex.scan(keys, (p, e) -> {
                throw new IOException("could not read " + keys.relative(p) + " (" + Walk.reason(e)
                        + "), so it cannot be told whether something points to the orphan; left alone", e);
            });
        }
        return pointers;
    }
}
