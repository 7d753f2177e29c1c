package dev.coffer.core.nio;

import dev.coffer.core.content.ContentKeys;
import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.Entry;
import dev.coffer.core.names.EntryType;
import dev.coffer.core.names.PathMapper;
import dev.coffer.core.util.AtomicFiles;
import dev.coffer.core.util.FileDeletion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry a move replaces where the move is more than one rename over it (a folder or link on
 * either side): it is moved aside first, under its own name, into a new {@code .coffer-tmp-} folder
 * beside it (readers ignore it), deleted once the move is done, and put back if the move fails, so
 * that a failed move leaves the target as it was (rename(2)). A crash in between leaves it set aside
 * in that folder, whose own time starts the 24 hours after which repair puts it back: under its name
 * if that is free (the move did not happen), else as a copy beside the entry that took it; it
 * deletes nothing (health {@code SetAsideEntries}).
 */
final class ReplacedEntry {
    private static final Logger LOG = LoggerFactory.getLogger(ReplacedEntry.class);
    private final Entry original;
    private final Path holder;
    private final Entry aside;
    private final Located where;
    private final CiphertextDirectory folder; // the replaced folder's storage, or null
    private final PathMapper mapper;
    private final OpenFiles openFiles;
    private final ContentKeys keys; // a replaced folder's dirid.c9r is restored with them if its delete is refused

    private ReplacedEntry(Entry original, Path holder, Located where, CiphertextDirectory folder, PathMapper mapper,
            OpenFiles openFiles, ContentKeys keys) {
        this.original = original;
        this.holder = holder;
        this.aside = new Entry(original.parent(), original.name(), original.type(),
                holder.resolve(original.entryPath().getFileName().toString()), original.shortened());
        this.where = where;
        this.folder = folder;
        this.mapper = mapper;
        this.openFiles = openFiles;
        this.keys = keys;
    }

    /** Sets {@code target}'s entry aside; a folder must be empty (else nothing changes). */
    static ReplacedEntry setAside(Located target, PathMapper mapper, OpenFiles openFiles, ContentKeys keys) throws IOException {
        Entry e = target.entry();
        CiphertextDirectory folder = null;
        if (e.type() == EntryType.DIRECTORY) {
            folder = mapper.open(e, target.display());
            TreeWriter.requireEmpty(folder, target);
        }
        Path holder = Files.createDirectory(e.entryPath().resolveSibling(AtomicFiles.tempName()));
        ReplacedEntry r = new ReplacedEntry(e, holder, target, folder, mapper, openFiles, keys);
        try {
            r.rename(e, r.aside);
        } catch (IOException | RuntimeException failure) {
            r.removeHolder(failure);
            throw failure;
        }
        try {
            AtomicFiles.syncDirectory(e.parent().storage());
        } catch (IOException notDurable) {
            r.putBack(notDurable); // a move that fails leaves the target where it was
            throw notDurable;
        }
        return r;
    }

    /** The move failed: the entry goes back under its name, unless something took the name meanwhile. */
    void putBack(Throwable failure) {
        try {
            rename(aside, original);
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
            LOG.warn("a replaced entry could not be put back after a failed move; it stays set aside in {}", holder);
            return;
        }
        removeHolder(failure);
        try {
            AtomicFiles.syncDirectory(original.parent().storage());
        } catch (IOException notDurable) {
            failure.addSuppressed(notDurable);
        }
    }

    /** The move is done: the replaced entry is deleted (what cannot be is left for repair, and logged). */
    void discard() {
        try {
            if (folder != null) {
                TreeWriter.deleteStorage(folder, where, keys); // first: a file created in it meanwhile keeps its pointer
            }
            if (aside.type() == EntryType.FILE) {
                openFiles.exclusively(() -> {
                    openFiles.beforeChange(aside.payload()); // an open file replaced underneath is not the one deleted
                    FileDeletion.deleteRegularFile(aside.payload());
                    openFiles.deleted(aside.payload()); // channels still open keep the file (POSIX)
                });
            } else {
                FileDeletion.deleteRegularFile(aside.payload());
            }
            TreeWriter.removeEntryFolder(aside);
            Files.delete(holder);
            AtomicFiles.syncDirectory(original.parent().storage());
        } catch (IOException e) {
            LOG.warn("could not delete an entry replaced by a move ({}); what is left of it stays set aside in {}",
                    e.getClass().getName(), holder);
        }
    }

    /**
     * The move happened but is not known to be durable (a folder's fsync failed): the replaced entry
     * stays set aside, where the health check's repair finds it and, a day later, puts it back as a
     * copy beside the entry that took its name (or under its name if the move was lost in a crash).
     */
    void keep() {
        LOG.warn("a move replaced an entry but could not be made durable; the replaced entry stays set aside in {}",
                holder);
    }

    private void removeHolder(Throwable failure) {
        try {
            Files.deleteIfExists(holder);
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    private void rename(Entry from, Entry to) throws IOException {
        if (from.type() == EntryType.FILE) {
            // Open channels on the file follow it, so that a put-back file is still the one they share.
            openFiles.exclusively(() -> {
                openFiles.beforeChange(from.payload()); // an open file replaced underneath stays behind
                Mover.atomicRename(from.entryPath(), to.entryPath(), false);
                openFiles.moved(from.payload(), to.payload(), where.display());
            });
        } else {
            Mover.atomicRename(from.entryPath(), to.entryPath(), false);
        }
        if (from.type() == EntryType.DIRECTORY) {
            mapper.invalidate(where.path().nfcNames()); // a lookup that started earlier must not cache the old state
        }
    }
}
