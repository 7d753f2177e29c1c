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
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Plans and makes the health check's repairs. Each change is one the format already knows how to
 * make safely: metadata files are written atomically ({@link AtomicFiles}: temporary file, fsync,
 * rename, fsync of the folder), folders are created in the order of spec 4 (storage folder and
 * {@code dirid.c9r} first, pointer last), and conflicts are resolved by the core's own
 * {@link ConflictResolver}. Nothing that differs from what stays is ever deleted; file contents are
 * never touched. Every repair re-checks the disk before it changes it, so running it twice is harmless.
 */
final class Repairs {
    private final VaultKeys keys;
    private final LostAndFound lostAndFound;

    Repairs(VaultKeys keys) {
        this.keys = keys;
        this.lostAndFound = new LostAndFound(keys, this);
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

    PlannedRepair removeEmptyOrphan(Path storage) {
        return new PlannedRepair(Step.ORPHANS, "orphan:" + storage, "remove the empty orphan storage folder "
                + keys.relative(storage), r -> r.doRemoveEmptyOrphan(storage));
    }

    PlannedRepair renameToNfc(Folder folder, String nfcName, Path entry, boolean shortened) {
        return new PlannedRepair(Step.NAMES, "nfc:" + entry, "store " + keys.relative(entry) + " under the encryption of its NFC name",
                r -> r.doRenameToNfc(folder, nfcName, entry, shortened));
    }

    PlannedRepair emptyHeaderOnlyFile(Path file) {
        return new PlannedRepair(Step.FILES, "empty:" + file, "empty " + keys.relative(file)
                + ", which holds only the header of an interrupted first write", r -> r.doEmptyHeaderOnlyFile(file));
    }

    PlannedRepair removeEmptyEntry(Path entry) {
        return new PlannedRepair(Step.FILES, "entry:" + entry, "remove the empty entry folder " + keys.relative(entry),
                r -> r.doRemoveEmptyEntry(entry));
    }

    PlannedRepair removeTemporaryFile(Path file) {
        return new PlannedRepair(Step.TEMPORARY_FILES, "temp:" + file, "remove the left-over temporary file " + keys.relative(file),
                r -> Files.deleteIfExists(file));
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

    /** Removes an entry folder only while it still holds nothing but {@code name.c9s} and temporary files. */
    private void doRemoveEmptyEntry(Path entry) throws IOException {
        if (!Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!EntryInspector.holdsNothing(entry, entry.getFileName().toString().endsWith(LongNames.C9S))) {
            throw new IOException(keys.relative(entry) + " is no longer empty; left alone");
        }
        for (String name : DirectoryLister.sortedNames(entry)) {
            Files.delete(entry.resolve(name));
        }
        Files.delete(entry);
        AtomicFiles.syncDirectory(entry.getParent());
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
     * Removes an orphan storage folder only while it still holds nothing but {@code dirid.c9r} and
     * temporary files: no entry, so nothing is lost, and nothing can reach what is being written there.
     */
    private void doRemoveEmptyOrphan(Path storage) throws IOException {
        if (!Files.isDirectory(storage)) {
            return;
        }
        if (!OrphanSearch.holdsNothing(storage)) {
            throw new IOException(keys.relative(storage) + " is no longer empty; left alone");
        }
        for (String name : DirectoryLister.sortedNames(storage)) {
            Files.delete(storage.resolve(name));
        }
        Files.delete(storage);
        Path parent = storage.getParent();
        if (DirectoryLister.sortedNames(parent).isEmpty()) {
            Files.delete(parent);
        }
        AtomicFiles.syncDirectory(keys.dataDir);
    }
}
