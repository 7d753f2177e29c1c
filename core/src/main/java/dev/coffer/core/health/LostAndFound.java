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
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * The {@code /LOST+FOUND} folder that orphan storage folders are adopted into. Adopting moves
 * nothing: it writes a new folder pointer ({@code dir.c9r}) holding the orphan's own directory ID,
 * named after that ID, so the orphan's whole subtree reappears at once and the same orphan is never
 * adopted twice. Folders are created in the order of spec 4, the pointer last.
 */
final class LostAndFound {
    static final String NAME = "LOST+FOUND";

    private final VaultKeys keys;
    private final Repairs repairs;
    private CiphertextDirectory folder;

    LostAndFound(VaultKeys keys, Repairs repairs) {
        this.keys = keys;
        this.repairs = repairs;
    }

    /** Makes the orphan folder with directory ID {@code id} reachable as {@code /LOST+FOUND/<id>}. */
    void adopt(String id) throws IOException {
        Path storage = keys.mapper.storageOf(id);
        if (!Files.isDirectory(storage)) {
            return;
        }
        // Re-checked on disk: a pointer that arrived by sync since the check, or this very adoption
        // made by an earlier repair of the same report, must not be joined by a second pointer.
        List<Path> referrers = repairs.pointers().referrersOf(storage);
        if (!referrers.isEmpty()) {
            Path lostAndFound = existingStorage();
            if (lostAndFound != null && referrers.stream().allMatch(p -> PointerIndex.storageOfPointer(p).equals(lostAndFound))) {
                return; // already adopted
            }
            throw new IOException(keys.relative(storage) + " is no orphan any more: " + keys.relative(referrers.get(0))
                    + " points to it; not adopted");
        }
        CiphertextDirectory parent = folder();
        String name = id;
        for (int k = 2; Files.exists(keys.mapper.slot(parent, name).entryPath(), LinkOption.NOFOLLOW_LINKS); k++) {
            name = id + " (" + k + ")";
        }
        Slot slot = keys.mapper.slot(parent, name);
        writePointer(slot, id);
        repairs.pointers().add(storage, slot.entryPath().resolve(EntryType.DIRECTORY.payloadName()));
    }

    /** The storage folder of an existing {@code /LOST+FOUND}, normalised, or null if there is none. */
    private Path existingStorage() throws IOException {
        CiphertextDirectory root = keys.mapper.root();
        Entry existing = keys.mapper.lookup(keys.mapper.slot(root, NAME), "/" + NAME);
        if (existing == null || existing.type() != EntryType.DIRECTORY) {
            return null;
        }
        return keys.mapper.open(existing, "/" + NAME).storage().toAbsolutePath().normalize();
    }

    private CiphertextDirectory folder() throws IOException {
        if (folder != null) {
            return folder;
        }
        CiphertextDirectory root = keys.mapper.root();
        Slot slot = keys.mapper.slot(root, NAME);
        Entry existing = keys.mapper.lookup(slot, "/" + NAME);
        if (existing != null && existing.type() == EntryType.DIRECTORY) {
            folder = keys.mapper.open(existing, "/" + NAME);
            if (!Files.isDirectory(folder.storage())) {
                repairs.doCreateStorage(folder.dirId());
            }
            return folder;
        }
        if (Files.exists(slot.entryPath(), LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("/" + NAME + " exists but is not a usable folder (" + keys.relative(slot.entryPath())
                    + "); orphans were not adopted");
        }
        String id = UUID.randomUUID().toString();
        repairs.doCreateStorage(id);
        writePointer(slot, id);
        folder = root.child(id, keys.mapper.storageOf(id));
        return folder;
    }

    /** Entry folder, {@code name.c9s} if shortened, then {@code dir.c9r} last (spec 4). */
    private void writePointer(Slot slot, String id) throws IOException {
        if (!DirIdFiles.isValid(id)) {
            throw new IllegalArgumentException("not a directory ID");
        }
        Files.createDirectory(slot.entryPath());
        if (slot.shortened()) {
            AtomicFiles.write(slot.entryPath().resolve(LongNames.NAME_FILE), slot.c9rName().getBytes(StandardCharsets.US_ASCII));
        }
        AtomicFiles.write(slot.entryPath().resolve(EntryType.DIRECTORY.payloadName()), id.getBytes(StandardCharsets.US_ASCII));
        AtomicFiles.syncDirectory(slot.parent().storage());
    }
}
