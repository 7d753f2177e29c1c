package dev.coffer.core.names;

import dev.coffer.core.crypto.AuthenticationFailedException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one storage folder and decodes it (spec 4): decrypts names, finds each entry's type by its
 * single payload, validates {@code dir.c9r} pointers, and skips (and logs, by ciphertext path
 * only) whatever is foreign, incomplete, unsafe or damaged. Never reads file contents, never writes.
 */
public final class DirectoryLister {
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryLister.class);
    public static final String DIRID_FILE = "dirid.c9r";
    private static final String NAME_FILE_BASE = LongNames.NAME_FILE.substring(0, LongNames.NAME_FILE.length() - LongNames.C9S.length());

    /** Reads a storage folder's items, sorted by name. */
    interface ItemSource {
        List<StorageItem> sorted(Path folder) throws IOException;
    }

    private final NameCipher names;
    private final ItemSource items;

    public DirectoryLister(NameCipher names) {
        this(names, StorageItem::sorted);
    }

    /** With items from elsewhere: the tests' reference listing (every item stat-ed), or a stale one. */
    DirectoryLister(NameCipher names, ItemSource items) {
        this.names = names;
        this.items = items;
    }

    public Listing list(CiphertextDirectory dir) throws IOException {
        List<StorageItem> onDisk = items.sorted(dir.storage());
        List<Entry> entries = new ArrayList<>();
        List<String> candidates = new ArrayList<>();
        List<Listing.DecoratedPayload> decorated = new ArrayList<>();
        List<Path> decoratedDirIds = new ArrayList<>();
        List<Listing.PayloadlessEntry> payloadless = new ArrayList<>();
        Set<String> seenNames = new HashSet<>();
        Set<String> seenIds = new HashSet<>();
        for (StorageItem item : onDisk) {
            String fileName = item.name();
            if (fileName.equals(DIRID_FILE) || fileName.startsWith(".")) {
                continue;
            }
            if (fileName.endsWith(LongNames.C9R) && Decorations.isDecoratedCopy(fileName, "dirid")) {
                decoratedDirIds.add(dir.storage().resolve(fileName));
                continue;
            }
            Path entryPath = dir.storage().resolve(fileName);
            String cleartext = decode(dir, fileName, entryPath, candidates);
            if (cleartext == null) {
                continue;
            }
            if (Names.isUnsafe(cleartext)) {
                LOG.warn("Skipped an entry with an unsafe name: {}", entryPath);
                continue;
            }
            cleartext = Names.nfc(cleartext);
            boolean shortened = fileName.endsWith(LongNames.C9S);
            Entry entry = typed(dir, cleartext, entryPath, shortened, item.kind(), decorated, payloadless);
            if (entry == null || !validPointer(entry, seenIds)) {
                continue;
            }
            if (!seenNames.add(cleartext)) {
                LOG.warn("Skipped a second entry with the same name: {}", entryPath);
                continue;
            }
            entries.add(entry);
        }
        return new Listing(dir, entries, candidates, decorated, decoratedDirIds, payloadless);
    }

    /** The cleartext name of an on-disk item, or null (foreign, incomplete, or a conflict candidate). */
    private String decode(CiphertextDirectory dir, String fileName, Path entryPath, List<String> candidates) throws IOException {
        if (fileName.endsWith(LongNames.C9R)) {
            String stem = fileName.substring(0, fileName.length() - LongNames.C9R.length());
            try {
                return names.decrypt(stem, dir.dirId());
            } catch (AuthenticationFailedException e) {
                candidates.add(fileName);
                return null;
            }
        }
        if (fileName.endsWith(LongNames.C9S)) {
            String c9r = readNameFile(entryPath);
            if (c9r == null || !c9r.endsWith(LongNames.C9R)) {
                LOG.warn("Skipped an incomplete shortened entry: {}", entryPath);
                return null;
            }
            if (!LongNames.shortened(c9r).equals(fileName)) {
                candidates.add(fileName);
                return null;
            }
            try {
                return names.decrypt(c9r.substring(0, c9r.length() - LongNames.C9R.length()), dir.dirId());
            } catch (AuthenticationFailedException e) {
                LOG.warn("Skipped a shortened entry whose name does not decrypt: {}", entryPath);
                return null;
            }
        }
        LOG.debug("Skipped a foreign file: {}", entryPath);
        return null;
    }

    /**
     * The entry with its type, or null if incomplete; notes decorated copies of internal files inside
     * entry folders ({@code dir (1).c9r}, {@code contents (1).c9r}, {@code symlink (1).c9r}, and in
     * shortened entries {@code name (1).c9s}), and entry folders that hold decorated payloads but
     * no payload. {@code listed} is what the folder's listing said the item is; where it did not say
     * file or folder, the item is asked.
     */
    private Entry typed(CiphertextDirectory dir, String name, Path entryPath, boolean shortened,
                        StorageItem.Kind listed, List<Listing.DecoratedPayload> decorated,
                        List<Listing.PayloadlessEntry> payloadless) throws IOException {
        // Only a file or a folder is taken from the listing: anything else (a file system that says
        // "symlink" for what lstat calls a file, as some network file systems do) is asked.
        StorageItem.Kind kind = listed == StorageItem.Kind.FILE || listed == StorageItem.Kind.FOLDER ? listed : kindOf(entryPath);
        if (kind == null) {
            return null; // vanished while listing
        }
        if (!shortened && kind == StorageItem.Kind.FILE) {
            return new Entry(dir, name, EntryType.FILE, entryPath, false);
        }
        if (kind != StorageItem.Kind.FOLDER) {
            LOG.warn("Skipped an entry that is neither file nor folder: {}", entryPath);
            return null;
        }
        List<String> inside;
        try {
            inside = sortedNames(entryPath);
        } catch (NoSuchFileException e) {
            return null; // vanished while listing
        } catch (NotDirectoryException e) {
            // Replaced by a file since the folder was read (a sync client at work): what it is now counts.
            return !shortened && kindOf(entryPath) == StorageItem.Kind.FILE
                    ? new Entry(dir, name, EntryType.FILE, entryPath, false) : null;
        }
        EntryType type = null;
        int payloads = 0;
        for (String inner : inside) {
            for (EntryType t : EntryType.values()) {
                if ((t != EntryType.FILE || shortened) && inner.equals(t.payloadName())) {
                    type = t;
                    payloads++;
                }
            }
        }
        if (payloads == 0) {
            List<Path> copies = decoratedCopies(entryPath, inside, shortened);
            if (copies.stream().anyMatch(c -> c.getFileName().toString().endsWith(LongNames.C9R))) {
                // Not an entry, but what it holds must not stay hidden: the resolver lists it (spec 6).
                payloadless.add(new Listing.PayloadlessEntry(name, entryPath, shortened, copies));
                return null;
            }
        }
        if (payloads != 1) {
            LOG.warn("Skipped an incomplete entry ({} payload files): {}", payloads, entryPath);
            return null;
        }
        Entry entry = new Entry(dir, name, type, entryPath, shortened);
        for (Path copy : decoratedCopies(entryPath, inside, shortened)) {
            decorated.add(new Listing.DecoratedPayload(entry, copy));
        }
        return entry;
    }

    /**
     * The decorated copies of internal files among {@code inside}, the sorted names in the entry
     * folder {@code entryPath}: payloads ({@code dir (1).c9r}, and {@code contents (1).c9r} in a
     * shortened entry) and, in a shortened entry, {@code name (1).c9s}.
     */
    public static List<Path> decoratedCopies(Path entryPath, List<String> inside, boolean shortened) {
        List<Path> copies = new ArrayList<>();
        for (String inner : inside) {
            for (EntryType t : EntryType.values()) {
                if (t == EntryType.FILE && !shortened) {
                    continue;
                }
                String base = t.payloadName().substring(0, t.payloadName().length() - LongNames.C9R.length());
                if (inner.endsWith(LongNames.C9R) && Decorations.isDecoratedCopy(inner, base)) {
                    copies.add(entryPath.resolve(inner));
                }
            }
            if (shortened && inner.endsWith(LongNames.C9S) && Decorations.isDecoratedCopy(inner, NAME_FILE_BASE)) {
                copies.add(entryPath.resolve(inner));
            }
        }
        return copies;
    }

    /** What the item at {@code path} is (a symlink is not followed), or null if it is gone. */
    private static StorageItem.Kind kindOf(Path path) throws IOException {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
        return attrs.isRegularFile() ? StorageItem.Kind.FILE
                : attrs.isDirectory() ? StorageItem.Kind.FOLDER : StorageItem.Kind.OTHER;
    }

    /** Folder pointers must be valid UUIDs, not an ancestor's ID, and not used twice in this folder. */
    private static boolean validPointer(Entry entry, Set<String> seenIds) throws IOException {
        if (entry.type() != EntryType.DIRECTORY) {
            return true;
        }
        String id = DirIdFiles.read(entry.payload());
        if (id == null) {
            LOG.warn("Skipped a folder with a damaged dir.c9r: {}", entry.entryPath());
            return false;
        }
        if (entry.parent().isSelfOrAncestor(id) || !seenIds.add(id)) {
            LOG.warn("Skipped a folder whose directory ID is already in use: {}", entry.entryPath());
            return false;
        }
        return true;
    }

    /** {@code name.c9s} content, or null if missing, too long or not ASCII. No line break is tolerated. */
    public static String readNameFile(Path entryPath) throws IOException {
        Path nameFile = entryPath.resolve(LongNames.NAME_FILE);
        byte[] buf = new byte[LongNames.MAX_NAME_FILE + 1];
        int n;
        try (InputStream in = Files.newInputStream(nameFile)) {
            n = in.readNBytes(buf, 0, buf.length);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            // name.c9s a folder, or the entry itself a file (ENOTDIR): an incomplete entry, not an error
            // that would hide the whole folder.
            if (Files.isDirectory(nameFile) || !Files.isDirectory(entryPath, LinkOption.NOFOLLOW_LINKS)) {
                return null;
            }
            throw e;
        }
        if (n > LongNames.MAX_NAME_FILE) {
            return null;
        }
        for (int i = 0; i < n; i++) {
            if (buf[i] < 0x21 || buf[i] > 0x7e) {
                return null;
            }
        }
        return new String(buf, 0, n, StandardCharsets.US_ASCII);
    }

    /**
     * Names in a folder, unsorted: from {@code getdents64} where it can answer (an open, its reads and
     * a close; the JDK's directory stream makes twice the system calls), else from the JDK.
     */
    public static List<String> names(Path folder) throws IOException {
        List<StorageItem> items = LinuxDirents.read(folder);
        List<String> result = new ArrayList<>();
        if (items != null) {
            for (StorageItem item : items) {
                result.add(item.name());
            }
            return result;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder)) {
            for (Path p : ds) {
                result.add(p.getFileName().toString());
            }
        }
        return result;
    }

    /** Names in a folder, sorted by their UTF-8 bytes (spec 6 processes copies in that order). */
    public static List<String> sortedNames(Path folder) throws IOException {
        List<String> result = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder)) {
            for (Path p : ds) {
                result.add(p.getFileName().toString());
            }
        }
        // Sorted because the spec's tie-breaks (which of two pointers or copies wins) go by this order.
        result.sort(Utf8Order.COMPARATOR);
        return result;
    }
}
