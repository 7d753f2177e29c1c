package dev.coffer.core.names;

import dev.coffer.core.util.AtomicFiles;
import dev.coffer.core.util.FolderDeletion;
import dev.coffer.core.util.NoReplaceRename;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The on-disk steps of conflict resolution, in the crash-safe order of spec 4 (a crash leaves an
 * orphan or a duplicate, never a loss): renaming an entry into a slot, adopting a loose payload
 * file as a new entry, removing an entry. Never replaces anything: an occupied target is reported
 * as such ({@code false}) and the caller picks another name. Knows nothing of conflict rules.
 *
 * <p>Java has no portable "rename unless the target exists": each rename checks the target and
 * then does one {@link Files#move} ({@code ATOMIC_MOVE} where supported). Only a file or an empty
 * folder that appears at the target between the check and the rename can be replaced (POSIX
 * {@code rename}); an occupied target found by the check or refused by the move counts as taken.
 */
public final class EntryMoves {
    private static final Logger LOG = LoggerFactory.getLogger(EntryMoves.class);

    private EntryMoves() {}

    /**
     * Moves the entry at {@code source} into {@code target}. Same form (short to short): one rename.
     * Otherwise: build the new entry (folder, {@code name.c9s}), move the payload into it, then
     * remove the old entry.
     *
     * @return false, with nothing changed, if the target is occupied
     */
    public static boolean move(Path source, boolean sourceShortened, EntryType type, Slot target) throws IOException {
        if (!sourceShortened && !target.shortened()) {
            return rename(source, target.entryPath());
        }
        Path payload = new Entry(null, "", type, source, sourceShortened).payload();
        if (!adopt(payload, type, target)) {
            return false;
        }
        if (!payload.equals(source)) {
            carryDecoratedCopies(source, sourceShortened, type, target);
            removeEmptied(source, sourceShortened);
        }
        return true;
    }

    /**
     * Moves the decorated copies of internal files ({@code contents (1).c9r}) that the old entry
     * folder holds into the new one, as a rename of a whole entry folder would, so that the next
     * listing resolves them (spec 6) instead of leaving them in a folder that no listing shows.
     * Not possible when the new entry is a short file (it has no folder): they stay, with a warning,
     * and the next listing makes each an entry of its own ({@link PayloadlessEntries}).
     */
    private static void carryDecoratedCopies(Path source, boolean sourceShortened, EntryType type, Slot target)
            throws IOException {
        if (!target.shortened() && type == EntryType.FILE) {
            return;
        }
        for (Path copy : DirectoryLister.decoratedCopies(source, DirectoryLister.sortedNames(source), sourceShortened)) {
            String name = copy.getFileName().toString();
            if (name.endsWith(LongNames.C9S) || (!target.shortened() && name.startsWith("contents"))) {
                continue; // the old name file's copy, or a file payload's copy a short folder cannot hold
            }
            if (!rename(copy, target.entryPath().resolve(name))) {
                LOG.warn("Left a conflict copy in the old entry folder because its name is taken in the new one: {}", copy);
            }
        }
    }

    /**
     * Makes the loose {@code payload} file the payload of a new entry in {@code target}: a short
     * file entry is one rename; otherwise entry folder, {@code name.c9s} if shortened, payload last.
     *
     * @return false, with nothing changed, if the target is occupied
     */
    static boolean adopt(Path payload, EntryType type, Slot target) throws IOException {
        Path entryPath = target.entryPath();
        if (!target.shortened() && type == EntryType.FILE) {
            return rename(payload, entryPath);
        }
        try {
            Files.createDirectory(entryPath);
        } catch (FileAlreadyExistsException e) {
            return false;
        }
        try {
            if (target.shortened()) {
                AtomicFiles.write(entryPath.resolve(LongNames.NAME_FILE), target.c9rName().getBytes(StandardCharsets.US_ASCII));
            }
            if (!renameUnsynced(payload, target.payload(type))) {
                throw new FileAlreadyExistsException(target.payload(type).toString(), null, "appeared in a folder just created");
            }
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(entryPath.resolve(LongNames.NAME_FILE));
                Files.deleteIfExists(entryPath);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        // Outside the undo above: once the payload is in, its entry must keep its name file.
        if (!entryPath.getParent().equals(payload.getParent())) {
            AtomicFiles.syncDirectory(entryPath.getParent()); // the new entry folder itself
        }
        syncBoth(payload, target.payload(type));
        return true;
    }

    /** Removes an entry: its payload, then {@code name.c9s}, then its folder. */
    static void remove(Path entryPath, boolean shortened, EntryType type) throws IOException {
        Path payload = new Entry(null, "", type, entryPath, shortened).payload();
        Files.delete(payload);
        if (!payload.equals(entryPath)) {
            removeEmptied(entryPath, shortened);
        }
    }

    /**
     * Removes an entry folder whose payload is gone; anything else still in it is left, with a warning.
     *
     * @return true if the folder is gone
     */
    public static boolean removeEmptied(Path folder, boolean shortened) throws IOException {
        if (!shortened) {
            // The common case costs one rmdir, no listing (every rmdir and folder move passes here):
            // only a folder that is not empty is looked into.
            switch (FolderDeletion.removeIfEmpty(folder)) {
                case REMOVED -> {
                    return true;
                }
                case ABSENT -> throw new NoSuchFileException(folder.toString());
                case NOT_EMPTY -> {
                    // something else is in it: said below
                }
            }
        }
        List<String> rest = DirectoryLister.sortedNames(folder);
        if (!rest.isEmpty() && !(shortened && rest.equals(List.of(LongNames.NAME_FILE)))) {
            LOG.warn("Left an emptied entry folder because it still holds other files {}: {}", rest, folder);
            return false;
        }
        Path nameFile = folder.resolve(LongNames.NAME_FILE);
        byte[] name = shortened && !rest.isEmpty() ? Files.readAllBytes(nameFile) : null;
        if (shortened) {
            Files.deleteIfExists(nameFile);
        }
        try {
            FolderDeletion.remove(folder); // rmdir on Linux: a file that took the folder's place is refused, not unlinked
        } catch (NotDirectoryException replaced) {
            LOG.warn("Left what took an emptied entry folder's place (not a folder now): {}", folder);
            return false;
        } catch (DirectoryNotEmptyException e) {
            // A file a sync client delivered meanwhile (a payload, a copy) must stay nameable.
            if (name != null) {
                try {
                    AtomicFiles.writeNew(nameFile, name);
                } catch (FileAlreadyExistsException written) {
                    // the sync delivered the name file too
                }
            }
            LOG.warn("Left an emptied entry folder because a file appeared in it: {}", folder);
            return false;
        }
        return true;
    }

    /** One rename of {@code source} to the free name {@code target}, made durable; false if the target is occupied. */
    private static boolean rename(Path source, Path target) throws IOException {
        if (!renameUnsynced(source, target)) {
            return false;
        }
        syncBoth(source, target);
        return true;
    }

    /** One rename of {@code source} to the free name {@code target}; false if the target is occupied. */
    private static boolean renameUnsynced(Path source, Path target) throws IOException {
        switch (NoReplaceRename.rename(source, target)) {
            case RENAMED:
                return true;
            case TARGET_EXISTS:
                return false;
            default:
                break; // checked, then moved, as where renameat2 cannot be asked
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try {
            try {
                Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(source, target);
            }
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
            return false;
        }
        return true;
    }

    /** fsyncs the folders a rename from {@code source} to {@code target} changed. */
    private static void syncBoth(Path source, Path target) throws IOException {
        AtomicFiles.syncDirectory(target.getParent());
        if (!source.getParent().equals(target.getParent())) {
            AtomicFiles.syncDirectory(source.getParent());
        }
    }
}
