package dev.coffer.core.health;

import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.DirIdFiles;
import dev.coffer.core.names.Entry;
import dev.coffer.core.names.EntryType;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.names.Slot;
import dev.coffer.core.util.AtomicFiles;
import dev.coffer.core.util.NotDurableException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Separates a folder pointer from another one that holds the same directory ID (a sync client's or a
 * user's copy of an entry folder): the second pointer gets a new directory ID and a copy of the
 * folder's contents, so that the two folders, which showed the same entries, go on separately. Nothing
 * is deleted; the first pointer keeps the original storage folder.
 *
 * <p>The copy is made from the ciphertext: names are encrypted again under the new ID (they are bound
 * to their folder's ID, spec 4), file contents and symlink targets are decrypted and encrypted again
 * ({@link ReencryptedCopies}: each copy gets its own header and fileSecret, spec 5.1, so units cannot be
 * swapped between the two undetected; a payload that does not decrypt is copied byte for byte, as it
 * is, and named in the repair's notes), and every subfolder gets a new ID too, recursively, so that no
 * ID ends up used twice. Entries the listing cannot use (damaged names, incomplete entries, conflict
 * copies) are not copied; they stay in the original. Order of spec 4: each new storage folder with its
 * {@code dirid.c9r} first, its entries, the pointer to it last; the second pointer is rewritten
 * atomically at the very end, so a crash leaves the old state and orphans (reported, removable), never
 * a half-copied folder in use. A copy that fails (an I/O error) removes the storage folders it made,
 * so a repair tried again and again leaves no orphans. Re-reads the pointer first: one that no longer
 * holds the ID (repaired already, or changed by a sync) is left alone.
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

    /**
     * Gives the pointer {@code pointerFile} of the folder {@code cleartextPath}, which holds {@code id}
     * like another pointer, a copy of its own.
     */
    void separate(String cleartextPath, Path pointerFile, String id) throws IOException {
        if (!Files.isRegularFile(pointerFile) || !id.equals(DirIdFiles.read(pointerFile))) {
            return;
        }
        Path storage = keys.mapper.storageOf(id);
        if (!Files.isDirectory(storage)) {
            throw new IOException("the storage folder " + keys.relative(storage) + " is gone; left as it is");
        }
        CiphertextDirectory source = new CiphertextDirectory(id, storage, Set.of());
        Copy copy = new Copy();
        String copyId;
        try {
            copyId = copy.folder(source, cleartextPath);
            AtomicFiles.write(pointerFile, copyId.getBytes(StandardCharsets.US_ASCII));
        } catch (NotDurableException e) {
            throw e; // the pointer was replaced (only its folder's fsync failed): the copy is in use
        } catch (IOException | RuntimeException e) {
            copy.removeFolders(e);
            throw e;
        }
        AtomicFiles.syncDirectory(pointerFile.getParent());
        copy.notes.forEach(repairs::note);
    }

    /** One copy of a subtree: the storage folders it made (to remove if it fails) and its notes on damaged files. */
    private final class Copy {
        /** Storage folders made, each with the shard folder above it if that was made for it (else null). */
        private final Map<Path, Path> folders = new LinkedHashMap<>();
        private final List<String> notes = new ArrayList<>();

        /** Copies the folder {@code source}, shown as {@code cleartextPath}, into a new storage folder; returns its new ID. */
        String folder(CiphertextDirectory source, String cleartextPath) throws IOException {
            String copyId = UUID.randomUUID().toString();
            Path storage = keys.mapper.storageOf(copyId);
            folders.put(storage, Files.isDirectory(storage.getParent()) ? null : storage.getParent());
            repairs.doCreateStorage(copyId);
            CiphertextDirectory copy = new CiphertextDirectory(copyId, storage, Set.of());
            for (Entry e : keys.lister.list(source).entries()) {
                Slot slot = keys.mapper.slot(copy, e.name());
                String path = (cleartextPath.endsWith("/") ? cleartextPath : cleartextPath + "/") + e.name();
                switch (e.type()) {
                    case FILE -> {
                        if (slot.shortened()) {
                            createEntryFolder(slot);
                        }
                        payload(e.payload(), slot.payload(EntryType.FILE), path);
                    }
                    case SYMLINK -> {
                        createEntryFolder(slot);
                        payload(e.payload(), slot.payload(EntryType.SYMLINK), path);
                    }
                    case DIRECTORY -> {
                        String childId = DirIdFiles.read(e.payload());
                        CiphertextDirectory child = childId == null ? null : source.child(childId, keys.mapper.storageOf(childId));
                        if (child == null || !Files.isDirectory(child.storage())) {
                            continue; // a damaged pointer, a loop or a missing folder: reported on its own, not copied
                        }
                        String childCopy = folder(child, path);
                        createEntryFolder(slot);
                        AtomicFiles.write(slot.payload(EntryType.DIRECTORY), childCopy.getBytes(StandardCharsets.US_ASCII));
                    }
                }
            }
            AtomicFiles.syncDirectory(copy.storage());
            return copyId;
        }

        /** Copies a file's or symlink's payload encrypted again, with a header of its own, or as it is if it is damaged. */
        private void payload(Path from, Path to, String cleartextPath) throws IOException {
            Optional<String> damage = payloads.copy(from, to, keys.relative(from));
            damage.ifPresent(reason -> notes.add(cleartextPath + " (" + keys.relative(to) + ") was copied byte for byte from "
                    + keys.relative(from) + " because its content is damaged (" + reason + "); both copies share its header"
                    + " and stay damaged"));
        }

        /**
         * Removes the storage folders this copy made (nothing else writes in them: new random IDs, the
         * vault not in use), newest first; a failure to remove is added to {@code failure}.
         */
        void removeFolders(Exception failure) {
            List<Map.Entry<Path, Path>> made = new ArrayList<>(folders.entrySet());
            Collections.reverse(made);
            for (Map.Entry<Path, Path> m : made) {
                try {
                    removeTree(m.getKey());
                    if (m.getValue() != null) {
                        Files.deleteIfExists(m.getValue()); // the shard folder made for it, if nothing else came in
                    }
                } catch (DirectoryNotEmptyException e) {
                    // the shard folder holds another new folder (removed next) or one made since: kept
                } catch (IOException e) {
                    failure.addSuppressed(e);
                }
            }
        }
    }

    private static void removeTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        List<Path> all;
        try (Stream<Path> walk = Files.walk(root)) {
            all = walk.collect(Collectors.toCollection(ArrayList::new));
        }
        Collections.reverse(all); // children before their folder
        for (Path p : all) {
            Files.deleteIfExists(p);
        }
    }

    private static void createEntryFolder(Slot slot) throws IOException {
        Files.createDirectory(slot.entryPath());
        if (slot.shortened()) {
            AtomicFiles.write(slot.entryPath().resolve(LongNames.NAME_FILE), slot.c9rName().getBytes(StandardCharsets.US_ASCII));
        }
    }
}
