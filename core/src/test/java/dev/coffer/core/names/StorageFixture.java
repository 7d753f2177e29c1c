package dev.coffer.core.names;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

/** Writes entries and sync-conflict copies into a folder's storage the way Coffer and sync clients would. */
final class StorageFixture {
    private static final byte[] SIV_KEY = HexFormat.of().parseHex(TestData.vectors().get("derivedKeys").get("sivKey").asText());

    final TestVault vault;
    final CiphertextDirectory root;

    StorageFixture(Path dataDir) throws IOException {
        this.vault = new TestVault(SIV_KEY, dataDir, 220, true);
        this.root = vault.mapper.root();
        Files.createDirectories(root.storage());
        Files.write(root.storage().resolve(DirectoryLister.DIRID_FILE), new byte[0]);
    }

    Slot slot(String name) {
        return vault.mapper.slot(root, name);
    }

    /** The on-disk name of {@code name} in the root storage folder. */
    String onDisk(String name) {
        return slot(name).entryPath().getFileName().toString();
    }

    byte[] encrypt(String cleartext) {
        return vault.content.encryptSmall(cleartext.getBytes(StandardCharsets.UTF_8));
    }

    String decrypt(Path payload) throws IOException {
        return new String(vault.decrypt(payload), StandardCharsets.UTF_8);
    }

    void file(String name, String content) throws IOException {
        Slot s = slot(name);
        write(s.entryPath(), s.shortened(), s.c9rName(), EntryType.FILE, encrypt(content));
    }

    void folder(String name, String dirId) throws IOException {
        storage(dirId);
        Slot s = slot(name);
        write(s.entryPath(), s.shortened(), s.c9rName(), EntryType.DIRECTORY, dirId.getBytes(StandardCharsets.US_ASCII));
    }

    void symlink(String name, String target) throws IOException {
        Slot s = slot(name);
        write(s.entryPath(), s.shortened(), s.c9rName(), EntryType.SYMLINK, encrypt(target));
    }

    /** A copy of entry {@code name} as a sync client makes it: the decoration inserted before {@code .c9r} or {@code .c9s}. */
    Path copy(String name, String decoration, EntryType type, byte[] payload) throws IOException {
        Slot s = slot(name);
        String onDisk = onDisk(name);
        int dot = onDisk.length() - 4;
        Path copy = root.storage().resolve(onDisk.substring(0, dot) + decoration + onDisk.substring(dot));
        write(copy, s.shortened(), s.c9rName(), type, payload);
        return copy;
    }

    /** A storage folder with its {@code dirid.c9r}, holding one file so that it is not empty. */
    void storage(String dirId) throws IOException {
        Path storage = vault.mapper.storageOf(dirId);
        Files.createDirectories(storage);
        Files.write(storage.resolve(DirectoryLister.DIRID_FILE), encrypt(dirId));
        CiphertextDirectory dir = new CiphertextDirectory(dirId, storage, java.util.Set.of());
        Files.write(vault.mapper.slot(dir, "inside.txt").entryPath(), encrypt("inside " + dirId));
    }

    private static void write(Path entryPath, boolean shortened, String c9rName, EntryType type, byte[] payload) throws IOException {
        if (type == EntryType.FILE && !shortened) {
            Files.write(entryPath, payload);
            return;
        }
        Files.createDirectory(entryPath);
        if (shortened) {
            Files.writeString(entryPath.resolve(LongNames.NAME_FILE), c9rName, StandardCharsets.US_ASCII);
        }
        Files.write(entryPath.resolve(type.payloadName()), payload);
    }
}
