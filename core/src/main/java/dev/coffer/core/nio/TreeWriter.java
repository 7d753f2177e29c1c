package dev.coffer.core.nio;

import dev.coffer.core.content.ContentKeys;
import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.names.Entry;
import dev.coffer.core.names.EntryMoves;
import dev.coffer.core.names.EntryType;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.names.Names;
import dev.coffer.core.names.PathMapper;
import dev.coffer.core.names.Slot;
import dev.coffer.core.util.AtomicFiles;
import dev.coffer.core.util.FileDeletion;
import dev.coffer.core.util.FolderDeletion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Creates and deletes folders, symlinks and entries in the order of spec 4, so that a crash leaves
 * an orphan or an incomplete entry (skipped by readers), never a lost file or a dangling pointer.
 */
final class TreeWriter {
    private final PathMapper mapper;
    private final ContentKeys keys;
    private final SymlinkTargets targets;
    private final OpenFiles openFiles;

    TreeWriter(PathMapper mapper, ContentKeys keys, SymlinkTargets targets, OpenFiles openFiles) {
        this.mapper = mapper;
        this.keys = keys;
        this.targets = targets;
        this.openFiles = openFiles;
    }

    /**
     * Storage folder and {@code dirid.c9r}, then the entry folder, then {@code dir.c9r} last. The
     * storage folder is made with {@code storageAttrs} (none, or the folder's permissions, from
     * {@link CreationAttributes}): a folder's permissions are its storage folder's.
     */
    void createDirectory(Located l, FileAttribute<?>[] storageAttrs) throws IOException {
        Slot slot = writableSlot(l);
        String id = UUID.randomUUID().toString();
        Path storage = mapper.storageOf(id);
        StoragePermissions permissions = StoragePermissions.of(storageAttrs);
        createStorage(storage, permissions.whileBuilding());
        AtomicFiles.write(storage.resolve(DirectoryLister.DIRID_FILE), keys.encryptSmall(id.getBytes(StandardCharsets.US_ASCII)));
        permissions.finish(storage);
        AtomicFiles.syncDirectory(storage.getParent());
        try {
            buildEntry(slot, l);
        } catch (IOException | RuntimeException e) {
            if (storageAttrs.length > 0) {
                letOwnerEmpty(storage, e);
            }
            removeUnused(storage, e); // the name is taken, or the parent's storage vanished (a sync client)
            throw e;
        }
        AtomicFiles.write(slot.payload(EntryType.DIRECTORY), id.getBytes(StandardCharsets.US_ASCII));
        AtomicFiles.syncDirectory(slot.parent().storage());
        mapper.made(slot);
    }

    /**
     * Creates a folder's storage with {@code attrs} and, if missing, its two-letter parent (never
     * with them: other folders' storage goes there too). java.io's {@code mkdir} answers a parent
     * that exists with false instead of the JDK's exception, which {@code createDirectories} throws
     * and catches twice whenever the parent is new (most new folders of a young vault); any real
     * failure still comes from the NIO calls after it.
     */
    private static void createStorage(Path storage, FileAttribute<?>[] attrs) throws IOException {
        Path parent = storage.getParent();
        if (parent != null && parent.getFileSystem() == FileSystems.getDefault()) {
            parent.toFile().mkdir();
        }
        try {
            Files.createDirectory(storage, attrs);
        } catch (NoSuchFileException e) {
            if (parent == null) {
                throw e;
            }
            Files.createDirectories(parent);
            Files.createDirectory(storage, attrs);
        }
    }

    /**
     * Gives the owner back write and search permission on a new storage folder that was given the
     * folder's permissions ({@code mkdir -m 555}) before its entry could not be made: else a user
     * other than root could not delete its {@code dirid.c9r}, and {@link #removeUnused} left it.
     */
    private static void letOwnerEmpty(Path storage, Throwable failure) {
        PosixFileAttributeView view = Files.getFileAttributeView(storage, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        if (view == null) {
            return; // no POSIX permissions: nothing was taken away
        }
        try {
            Set<PosixFilePermission> now = EnumSet.noneOf(PosixFilePermission.class);
            now.addAll(view.readAttributes().permissions());
            Set<PosixFilePermission> needed = EnumSet.of(PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);
            if (!now.containsAll(needed)) {
                now.addAll(needed);
                view.setPermissions(now);
            }
        } catch (IOException | RuntimeException cleanup) {
            failure.addSuppressed(cleanup);
        }
    }

    /**
     * Deletes a new storage folder no pointer will name (its entry could not be made): else it would
     * stay an orphan, which the health check reports. No one else knows its random ID, so it holds
     * only {@code dirid.c9r}. Its two-letter parent goes too if it held only this one. Failures are
     * added to {@code failure}.
     */
    private static void removeUnused(Path storage, Throwable failure) {
        try {
            Files.deleteIfExists(storage.resolve(DirectoryLister.DIRID_FILE));
            Files.delete(storage);
        } catch (IOException cleanup) {
            failure.addSuppressed(cleanup);
            return;
        }
        try {
            Files.delete(storage.getParent());
        } catch (DirectoryNotEmptyException | NoSuchFileException sharedOrGone) {
            // other folders' storage is there too, or a sync client removed it
        } catch (IOException cleanup) {
            failure.addSuppressed(cleanup);
        }
    }

    /** Entry folder, {@code name.c9s}, then {@code symlink.c9r} last. */
    void createSymbolicLink(Located l, String target) throws IOException {
        Slot slot = writableSlot(l);
        buildEntry(slot, l);
        AtomicFiles.write(slot.payload(EntryType.SYMLINK), targets.encrypt(target));
        AtomicFiles.syncDirectory(slot.parent().storage());
        mapper.made(slot);
    }

    /** Creates the entry folder (and {@code name.c9s} when shortened); refuses if the name is taken. */
    void buildEntry(Slot slot, Located l) throws IOException {
        try {
            Files.createDirectory(slot.entryPath());
        } catch (FileAlreadyExistsException e) {
            throw new FileAlreadyExistsException(l.display());
        }
        if (slot.shortened()) {
            try {
                AtomicFiles.write(slot.entryPath().resolve(LongNames.NAME_FILE), slot.c9rName().getBytes(StandardCharsets.US_ASCII));
            } catch (IOException | RuntimeException e) {
                // An entry folder without its payload would take the name (EEXIST) while no lookup finds it;
                // its name file is there if only the folder's fsync failed.
                try {
                    Files.deleteIfExists(slot.entryPath().resolve(LongNames.NAME_FILE));
                    Files.deleteIfExists(slot.entryPath());
                } catch (IOException cleanup) {
                    e.addSuppressed(cleanup);
                }
                throw e;
            }
        }
    }

    /** The slot for a new entry: its name must be writable and free, its parent must exist. */
    Slot writableSlot(Located l) throws IOException {
        if (l.isRoot()) {
            throw new FileAlreadyExistsException("/");
        }
        Names.checkWritable(l.path().getFileName().toString(), l.display());
        if (l.entry() != null) {
            throw new FileAlreadyExistsException(l.display());
        }
        mapper.forgetFolder(l.path().nfcNames());
        return l.slot();
    }

    /**
     * Deletes an entry; a folder must be empty: storage folder first, the pointer last. The parent
     * storage folder is synced after a folder or symlink, not after a file: whichever way a crash
     * leaves a deleted file (gone, back, or an incomplete entry that readers skip), nothing is lost,
     * and rm -rf would otherwise pay a folder sync per file.
     */
    void delete(Located l) throws IOException {
        if (l.isRoot()) {
            throw new FileSystemException("/", null, "the root folder cannot be deleted");
        }
        Entry e = l.entry();
        if (e == null) {
            throw new NoSuchFileException(l.display());
        }
        if (e.type() == EntryType.DIRECTORY) {
            boolean storageGone = false;
            try {
                deleteStorage(mapper.open(e, l.display()), l, keys); // a refusal (not empty) changes nothing
                storageGone = true;
                FileDeletion.deleteRegularFile(e.payload()); // every payload is a regular file
                removeEntryFolder(e);
            } finally {
                if (storageGone) {
                    // After every change on disk, also when a later step failed: a lookup that started
                    // earlier must not cache the old folder, nor a later one find its deleted storage cached.
                    mapper.invalidate(l.path().nfcNames());
                }
            }
        } else if (e.type() == EntryType.FILE) {
            // Together, so that no open registers the file in between (it would be forgotten with the deleted one).
            openFiles.exclusively(() -> {
                openFiles.beforeChange(e.payload()); // an open file replaced underneath is not the one deleted
                FileDeletion.deleteRegularFile(e.payload());
                openFiles.deleted(e.payload());
            });
            removeEntryFolder(e);
        } else {
            FileDeletion.deleteRegularFile(e.payload());
            removeEntryFolder(e);
        }
        if (e.type() != EntryType.FILE) {
            AtomicFiles.syncDirectory(e.parent().storage());
        }
    }

    /**
     * Throws {@link DirectoryNotEmptyException} if the folder's storage holds anything but
     * {@code dirid.c9r} (even foreign files); false if the storage folder is missing.
     */
    static boolean requireEmpty(CiphertextDirectory dir, Located l) throws IOException {
        List<String> names;
        try {
            names = DirectoryLister.names(dir.storage());
        } catch (NoSuchFileException | java.nio.file.NotDirectoryException e) {
            return false;
        }
        for (String name : names) {
            if (!name.equals(DirectoryLister.DIRID_FILE)) {
                throw new DirectoryNotEmptyException(l.display());
            }
        }
        return true;
    }

    /**
     * Removes what is left of an entry once its payload is gone: {@code name.c9s} and the entry
     * folder. A folder that still holds something else (a sync client's {@code contents (1).c9r})
     * keeps its {@code name.c9s}, so that the next listing can name that copy (spec 6).
     */
    static void removeEntryFolder(Entry e) throws IOException {
        if (!e.shortened() && e.type() == EntryType.FILE) {
            return; // the payload was the entry
        }
        try {
            EntryMoves.removeEmptied(e.entryPath(), e.shortened());
        } catch (NoSuchFileException gone) {
            // removed meanwhile (a sync client): nothing left to remove
        }
    }

    /**
     * Deletes an empty folder's storage; anything but {@code dirid.c9r} in it (even foreign files) means
     * not empty. A file that arrives between the listing and the rmdir (a sync client) refuses the
     * delete too, and the folder, which stays, gets its {@code dirid.c9r} back (spec 4: every storage
     * folder holds one, for repair tools).
     */
    static void deleteStorage(CiphertextDirectory dir, Located l, ContentKeys keys) throws IOException {
        if (!requireEmpty(dir, l)) {
            return; // pointer to a missing storage folder: nothing to lose
        }
        // Direct unlink and rmdir calls: NIO's delete stats each path first and throws for the shared
        // two-letter folder. A two-letter folder that is not empty, or gone, is left as it is.
        Path dirIdFile = dir.storage().resolve(DirectoryLister.DIRID_FILE);
        boolean hadDirId = FileDeletion.deleteRegularFileIfExists(dirIdFile);
        try {
            FolderDeletion.remove(dir.storage());
        } catch (DirectoryNotEmptyException arrived) {
            DirectoryNotEmptyException refused = new DirectoryNotEmptyException(l.display());
            if (hadDirId) {
                try {
                    AtomicFiles.writeNew(dirIdFile, keys.encryptSmall(dir.dirId().getBytes(StandardCharsets.US_ASCII)));
                } catch (FileAlreadyExistsException delivered) {
                    // the sync client brought one too
                } catch (IOException notRestored) {
                    refused.addSuppressed(notRestored);
                }
            }
            throw refused;
        }
        FolderDeletion.removeIfEmpty(dir.storage().getParent());
    }

    /** The keys that encrypt {@code dirid.c9r} (a replaced folder's storage is deleted with them). */
    ContentKeys keys() {
        return keys;
    }
}
