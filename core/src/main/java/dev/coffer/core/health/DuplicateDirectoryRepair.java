package dev.coffer.core.health;

import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.DirIdFiles;
import dev.coffer.core.names.Entry;
import dev.coffer.core.names.EntryType;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.names.Slot;
import dev.coffer.core.util.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.UUID;

/**
 * Separates a folder pointer from another one that holds the same directory ID (a sync client's or a
 * user's copy of an entry folder): the second pointer gets a new directory ID and a copy of the
 * folder's contents, so that the two folders, which showed the same entries, go on separately. Nothing
 * is deleted; the first pointer keeps the original storage folder.
 *
 * <p>The copy is made from the ciphertext: names are encrypted again under the new ID (they are bound
 * to their folder's ID, spec 4), file contents and symlink targets are decrypted and encrypted again
 * ({@link ReencryptedCopies}: each copy gets its own header and fileSecret, spec 5.1, so units cannot be
 * swapped between the two undetected; a payload that does not decrypt fails the repair), and every
 * subfolder gets a new ID too, recursively, so that no ID ends up used twice. Entries the listing cannot use (damaged names, incomplete entries, conflict
 * copies) are not copied; they stay in the original. Order of spec 4: each new storage folder with its
 * {@code dirid.c9r} first, its entries, the pointer to it last; the second pointer is rewritten
 * atomically at the very end, so a crash leaves the old state and orphans (reported, removable), never
 * a half-copied folder in use. Re-reads the pointer first: one that no longer holds the ID (repaired
 * already, or changed by a sync) is left alone.
 *
 * <p>Not responsible for deciding which pointer is the second ({@link Walk} does).
 */
final class DuplicateDirectoryRepair {
    private final VaultKeys keys;
    private final Repairs repairs;
    private final ReencryptedCopies payloads;

    DuplicateDirectoryRepair(VaultKeys keys, Repairs repairs) {
        this.keys = keys;
        this.repairs = repairs;
        this.payloads = new ReencryptedCopies(keys.content);
    }

    /** Gives the pointer {@code pointerFile}, which holds {@code id} like another pointer, a copy of its own. */
    void separate(Path pointerFile, String id) throws IOException {
        if (!Files.isRegularFile(pointerFile) || !id.equals(DirIdFiles.read(pointerFile))) {
            return;
        }
        Path storage = keys.mapper.storageOf(id);
        if (!Files.isDirectory(storage)) {
            throw new IOException("the storage folder " + keys.relative(storage) + " is gone; left as it is");
        }
        CiphertextDirectory source = new CiphertextDirectory(id, storage, Set.of());
        String copyId = copyFolder(source);
        AtomicFiles.write(pointerFile, copyId.getBytes(StandardCharsets.US_ASCII));
        AtomicFiles.syncDirectory(pointerFile.getParent());
    }

    /** Copies the folder {@code source} into a new storage folder and returns its new directory ID. */
    private String copyFolder(CiphertextDirectory source) throws IOException {
        String copyId = UUID.randomUUID().toString();
        repairs.doCreateStorage(copyId);
        CiphertextDirectory copy = new CiphertextDirectory(copyId, keys.mapper.storageOf(copyId), Set.of());
        for (Entry e : keys.lister.list(source).entries()) {
            Slot slot = keys.mapper.slot(copy, e.name());
            switch (e.type()) {
                case FILE -> {
                    if (slot.shortened()) {
                        createEntryFolder(slot);
                    }
                    copyPayload(e.payload(), slot.payload(EntryType.FILE));
                }
                case SYMLINK -> {
                    createEntryFolder(slot);
                    copyPayload(e.payload(), slot.payload(EntryType.SYMLINK));
                }
                case DIRECTORY -> {
                    String childId = DirIdFiles.read(e.payload());
                    CiphertextDirectory child = childId == null ? null : source.child(childId, keys.mapper.storageOf(childId));
                    if (child == null || !Files.isDirectory(child.storage())) {
                        continue; // a damaged pointer, a loop or a missing folder: reported on its own, not copied
                    }
                    String childCopy = copyFolder(child);
                    createEntryFolder(slot);
                    AtomicFiles.write(slot.payload(EntryType.DIRECTORY), childCopy.getBytes(StandardCharsets.US_ASCII));
                }
            }
        }
        AtomicFiles.syncDirectory(copy.storage());
        return copyId;
    }

    private static void createEntryFolder(Slot slot) throws IOException {
        Files.createDirectory(slot.entryPath());
        if (slot.shortened()) {
            AtomicFiles.write(slot.entryPath().resolve(LongNames.NAME_FILE), slot.c9rName().getBytes(StandardCharsets.US_ASCII));
        }
    }

    /** Copies a file's or symlink's payload encrypted again, with a header of its own. */
    private void copyPayload(Path from, Path to) throws IOException {
        payloads.copy(from, to, keys.relative(from));
    }
}
