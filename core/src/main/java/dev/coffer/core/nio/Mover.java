package dev.coffer.core.nio;

import dev.coffer.core.names.DamagedEntryException;
import dev.coffer.core.names.Entry;
import dev.coffer.core.names.EntryType;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.names.PathMapper;
import dev.coffer.core.names.Slot;
import dev.coffer.core.util.AtomicFiles;
import dev.coffer.core.util.NoReplaceRename;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves entries within a vault by renaming only their ciphertext entry (spec 4): content is never
 * re-encrypted. A file replacing a file is one atomic rename of the payload; between the short and
 * the shortened form the new entry is built first, the payload moved, the old entry removed.
 */
final class Mover {
    private static final Logger LOG = LoggerFactory.getLogger(Mover.class);
    private final PathMapper mapper;
    private final TreeWriter writer;
    private final OpenFiles openFiles;

    Mover(PathMapper mapper, TreeWriter writer, OpenFiles openFiles) {
        this.mapper = mapper;
        this.writer = writer;
        this.openFiles = openFiles;
    }

    /**
     * True if {@code dst} lies in the folder {@code src} or below it, however either path spells its
     * names: compared as NFC names, and by the folders' IDs (the moved folder's, read afresh, against
     * the target's parent and the folders above it), since a path in another Unicode form, or through
     * an NFD-stored alias, names the same folders. Moving a folder into itself would leave its
     * pointer inside its own storage folder, unreachable with everything below it.
     */
    private boolean movesIntoItself(Located src, Located dst, Entry moved) throws IOException {
        List<String> from = src.path().nfcNames();
        List<String> to = dst.path().nfcNames();
        if (to.size() >= from.size() && to.subList(0, from.size()).equals(from)) {
            return true;
        }
        String id;
        try {
            id = mapper.open(moved, src.display()).dirId();
        } catch (DamagedEntryException damaged) {
            return false; // no ID to compare: a damaged pointer may still be moved or renamed away
        }
        return dst.parent() != null && dst.parent().isSelfOrAncestor(id);
    }

    void move(Located src, Located dst, CopyOption... options) throws IOException {
        if (src.isRoot() || dst.isRoot()) {
            throw new FileSystemException(src.display(), dst.display(), "the root folder cannot be moved or replaced");
        }
        Entry e = src.entry();
        if (e == null) {
            throw new NoSuchFileException(src.display());
        }
        if (src.slot().entryPath().equals(dst.slot().entryPath())) {
            return; // same entry (also the same name in another Unicode normal form)
        }
        if (e.type() == EntryType.DIRECTORY && movesIntoItself(src, dst, e)) {
            throw new FileSystemException(src.display(), dst.display(), "cannot move a folder into itself");
        }
        boolean replace = Arrays.asList(options).contains(StandardCopyOption.REPLACE_EXISTING);
        Slot to = writer.writableSlot(new Located(dst.path(), dst.parent(), dst.slot(), null));
        Entry existing = dst.entry();
        boolean fileOverFile = false;
        ReplacedEntry setAside = null;
        if (existing != null) {
            if (!replace) {
                throw new FileAlreadyExistsException(dst.display());
            }
            fileOverFile = existing.type() == EntryType.FILE && e.type() == EntryType.FILE;
            if (!fileOverFile) {
                setAside = setAside(dst); // deleted once the move is done, put back if it fails
            }
        }
        boolean replacesFile = fileOverFile;
        boolean oneRename = !e.shortened() && !to.shortened() && (existing == null || e.type() == EntryType.FILE);
        // The new entry's writes and fsyncs come before the registry is held.
        boolean built;
        try {
            built = !oneRename && buildTargetEntry(e, to, dst, replace);
        } catch (IOException | RuntimeException failure) {
            if (setAside != null) {
                setAside.putBack(failure);
            }
            throw failure;
        }
        // The file being replaced may be stored under the name in another Unicode form (the lookup
        // found it through an alias): the move's rename does not replace it, so it is deleted after.
        boolean replacesAlias = replacesFile && !existing.entryPath().equals(to.entryPath());
        boolean[] moved = {false};
        RuntimeException afterwards = null;
        try {
            openFiles.exclusively(() -> {
                // Which files the paths hold now: an open file a sync client replaced underneath is
                // neither the file moved nor the one replaced, and keeps its claim to a conflict copy.
                openFiles.beforeChange(e.type() == EntryType.FILE ? e.payload() : null, to.payload(EntryType.FILE),
                        to.entryPath(), replacesFile ? existing.payload() : null);
                if (oneRename) {
                    renameEntry(e, to, dst, replacesFile && !replacesAlias, replace);
                } else {
                    moveIntoEntry(e, to, dst, replace);
                }
                moved[0] = true;
                registryAfterMove(e, to, dst, replacesFile ? existing : null);
                if (replacesAlias) {
                    deleteAlias(existing);
                }
            });
        } catch (IOException | RuntimeException failure) {
            if (!moved[0]) {
                if (built) {
                    removeBuiltEntry(to, failure); // a half entry would take the name while no lookup finds it
                }
                if (setAside != null) {
                    setAside.putBack(failure);
                }
                throw failure;
            }
            if (failure instanceof IOException io) {
                throw io; // not thrown after the move (see deleteAlias); kept so that the compiler knows
            }
            afterwards = (RuntimeException) failure; // a bug after the move: finish the move's steps, then throw
        }
        if (!oneRename) {
            try {
                TreeWriter.removeEntryFolder(e);
            } catch (IOException leftover) {
                // The move happened, so it is not reported as failed; what is left of the old entry (its
                // folder, name.c9s) has no payload: readers skip it, but it keeps the old name taken
                // (EEXIST) until the health check's repair removes it.
                LOG.warn("could not remove the old entry folder of a moved entry ({})", leftover.getClass().getName());
            }
        }
        try {
            afterMove(e, to, src, dst);
        } catch (IOException notDurable) {
            if (setAside != null) {
                setAside.keep(); // deleted only once the move is durable: a crash never keeps the delete without the move
            }
            if (afterwards != null) {
                notDurable.addSuppressed(afterwards);
            }
            throw notDurable;
        }
        if (setAside != null) {
            setAside.discard(); // after the move's fsyncs: a crash never keeps the delete without the move
        }
        if (afterwards != null) {
            throw afterwards;
        }
    }

    /**
     * Moves the payload into the target's entry. Its file may exist only if a file replaces a file (an
     * existing one, or one created since the lookup, which a rename(2) replaces too); anything else
     * there was not seen by the lookup, and is not replaced.
     */
    private void moveIntoEntry(Entry e, Slot to, Located dst, boolean replace) throws IOException {
        Path target = to.payload(e.type());
        boolean taken = Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        boolean fileThere = taken && Files.isRegularFile(target, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if (taken && !(replace && e.type() == EntryType.FILE && fileThere)) {
            throw new FileAlreadyExistsException(dst.display()); // only a file replaces a file
        }
        for (EntryType other : EntryType.values()) {
            if (other == e.type() || (other == EntryType.FILE && !to.shortened())) {
                continue; // a short-named file's payload is the entry itself, not something in it
            }
            if (Files.exists(to.payload(other), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw new FileAlreadyExistsException(dst.display()); // another kind of entry took the name meanwhile
            }
        }
        atomicRename(e.payload(), target, taken);
        if (taken) {
            openFiles.deleted(target); // channels on the replaced file keep it; new opens must not join it
        }
    }

    /**
     * Renames a whole entry (short names on both sides). A file replaces what the lookup found, or a
     * file created there since (as rename(2) would); anything else there since is not replaced.
     */
    private void renameEntry(Entry e, Slot to, Located dst, boolean seen, boolean replace) throws IOException {
        boolean fileSince = !seen && replace && e.type() == EntryType.FILE
                && Files.isRegularFile(to.entryPath(), java.nio.file.LinkOption.NOFOLLOW_LINKS);
        atomicRename(e.entryPath(), to.entryPath(), seen || fileSince);
        if (fileSince) {
            openFiles.deleted(to.entryPath()); // channels on the replaced file keep it; new opens must not join it
        }
    }

    /**
     * Deletes the replaced file's entry stored under the name's other Unicode form. The move has
     * happened, so a failure is not reported as the move's: it leaves that entry beside the moved
     * one (listings show either) until it is deleted, and is logged. One a sync client removed
     * meanwhile is simply gone.
     */
    private static void deleteAlias(Entry alias) {
        try {
            Files.deleteIfExists(alias.payload());
            TreeWriter.removeEntryFolder(alias);
        } catch (IOException e) {
            LOG.warn("could not delete the replaced file's entry under its name's other Unicode form ({}): {}",
                    e.getClass().getName(), alias.entryPath());
        }
    }

    /** The registry's updates for a move (under its monitor): the replaced file is forgotten, the moved one follows. */
    private void registryAfterMove(Entry e, Slot to, Located dst, Entry replaced) {
        if (replaced != null) {
            // Channels on the replaced file keep it (POSIX); new opens of this path must not join it. Only
            // after the rename: had it failed, the file would still be there with channels open on it, and
            // forgetting it would give a later open a second OpenFile (its own caches) on the same file.
            openFiles.deleted(replaced.payload());
        }
        if (e.type() == EntryType.FILE) {
            openFiles.moved(e.payload(), to.payload(EntryType.FILE), dst.display());
        }
    }

    /**
     * Removes the entry folder {@link #buildTargetEntry} made for a move whose payload did not move, if
     * it holds nothing else than its name file (a payload put there by anybody else keeps its name).
     */
    private static void removeBuiltEntry(Slot to, Throwable failure) {
        try (java.nio.file.DirectoryStream<Path> in = Files.newDirectoryStream(to.entryPath())) {
            for (Path p : in) {
                if (!p.getFileName().toString().equals(LongNames.NAME_FILE)) {
                    return;
                }
            }
        } catch (IOException | java.nio.file.DirectoryIteratorException listing) {
            failure.addSuppressed(listing);
            return;
        }
        try {
            Files.deleteIfExists(to.entryPath().resolve(LongNames.NAME_FILE));
            Files.deleteIfExists(to.entryPath());
        } catch (IOException cleanup) {
            failure.addSuppressed(cleanup);
        }
    }


    /**
     * Where the payload cannot move in one rename (a shortened name on either side, or a folder or link
     * over an existing entry): builds the target's entry folder for it first (true if it did); the
     * payload is moved into it and the old entry folder removed after.
     */
    private boolean buildTargetEntry(Entry e, Slot to, Located dst, boolean replace) throws IOException {
        if (!to.shortened() && e.type() == EntryType.FILE) {
            return false; // a file under a short name is its own entry
        }
        if (Files.exists(to.entryPath(), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            if (replace && e.type() == EntryType.FILE) {
                if (to.shortened() && !Files.exists(to.entryPath().resolve(LongNames.NAME_FILE), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    // Left without its name file (a removal that stopped half-way): listings would skip the moved file.
                    AtomicFiles.write(to.entryPath().resolve(LongNames.NAME_FILE),
                            to.c9rName().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                }
                return false; // a file replacing a file moves into the existing entry
            }
            // Not ours (being created by somebody else right now, or left half made): its name is taken.
            throw new FileAlreadyExistsException(dst.display());
        }
        writer.buildEntry(to, dst);
        return true;
    }

    private ReplacedEntry setAside(Located dst) throws IOException {
        try {
            return ReplacedEntry.setAside(dst, mapper, openFiles, writer.keys());
        } catch (DirectoryNotEmptyException e) {
            throw new DirectoryNotEmptyException(dst.display());
        }
    }

    private void afterMove(Entry e, Slot to, Located src, Located dst) throws IOException {
        if (e.type() == EntryType.DIRECTORY) {
            mapper.invalidate(src.path().nfcNames());
            mapper.invalidate(dst.path().nfcNames());
            openFiles.folderMoved(src.display(), dst.display());
        }
        if (to.shortened() || e.type() != EntryType.FILE) {
            AtomicFiles.syncDirectory(to.entryPath()); // the payload's new link, inside the entry folder
        }
        AtomicFiles.syncDirectory(e.parent().storage());
        AtomicFiles.syncDirectory(to.parent().storage());
    }

    static void atomicRename(Path from, Path to, boolean replace) throws IOException {
        try {
            if (replace) {
                Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else {
                switch (NoReplaceRename.rename(from, to)) {
                    case RENAMED -> {
                        return;
                    }
                    case TARGET_EXISTS -> throw new FileAlreadyExistsException(to.toString());
                    case NOT_DONE -> {
                        // checked, then moved: a file created in between would be replaced
                        if (Files.exists(to, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                            throw new FileAlreadyExistsException(to.toString());
                        }
                        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
                    }
                }
            }
        } catch (AtomicMoveNotSupportedException e) {
            // Ciphertext stores without atomic rename (Jimfs in tests): the plain move is all they offer.
            if (replace) {
                Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.move(from, to);
            }
        }
    }
}
