package dev.coffer.core.names;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one place that turns cleartext paths and names into ciphertext locations (spec 4): resolves
 * folders to storage folders (cached), names to slots, and slots to entries by their payload.
 * Thread-safe.
 */
public final class PathMapper {
    private final Path dataDir;
    private final NameCipher names;
    private final LongNames longNames;
    private final CiphertextDirectory root;
    private final FolderCache folders;
    /** Entries a listing found under another on-disk name than their slot's (see {@link #rememberListed}). */
    private final Map<String, Entry> aliases = new ConcurrentHashMap<>();
    private final EntryTypeCache entryTypes = new EntryTypeCache(System::currentTimeMillis);
    /** Whether lookups recently missed, so that the next one asks {@link AbsenceProbe} first. */
    private final RecentMisses misses = new RecentMisses();

    public PathMapper(Path dataDir, NameCipher names, LongNames longNames) {
        this.dataDir = dataDir;
        this.names = names;
        this.longNames = longNames;
        this.root = new CiphertextDirectory("", storageOf(""), Set.of());
        this.folders = new FolderCache(root, this::pointerStillNames, System::nanoTime);
    }

    public NameCipher names() {
        return names;
    }

    public CiphertextDirectory root() {
        return root;
    }

    public Path storageOf(String dirId) {
        return dataDir.resolve(names.storageFolder(dirId));
    }

    /** Where child {@code nfcName} of {@code parent} is stored (whether or not it exists). */
    public Slot slot(CiphertextDirectory parent, String nfcName) {
        String encName = names.encrypt(nfcName, parent.dirId());
        String onDisk = longNames.onDiskName(encName);
        return new Slot(parent, nfcName, encName, parent.storage().resolve(onDisk), onDisk.endsWith(LongNames.C9S));
    }

    /**
     * The entry in {@code slot}, or null if nothing usable is there. An incomplete entry (no payload or
     * several: a folder being created or deleted right now, or half-synced) counts as absent, as spec 4
     * says readers skip it; its slot stays occupied, so creating that name still fails.
     */
    public Entry lookup(Slot slot, String cleartextPath) throws IOException {
        Found found = lookup(slot, BasicFileAttributes.class);
        return found == null ? null : found.entry();
    }

    /**
     * Like {@link #lookup(Slot, String)}, and hands on the attributes (of {@code attributeType}) it
     * read of the entry's on-disk item to find its type: a stat after a lookup needs no second read.
     */
    public Found lookup(Slot slot, Class<? extends BasicFileAttributes> attributeType) throws IOException {
        BasicFileAttributes attrs;
        long statTime = entryTypes.now(); // before the stat: what the folder's time is compared with
        String folder = slot.parent().dirId();
        if (misses.likelyIn(folder, slot.encName(), statTime)) {
            if (AbsenceProbe.absent(slot.entryPath())) {
                misses.missed(folder, statTime);
                return missing(slot, attributeType);
            }
            misses.present(folder, slot.encName());
        }
        try {
            attrs = Files.readAttributes(slot.entryPath(), attributeType, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            misses.missed(folder, statTime);
            return missing(slot, attributeType);
        }
        EntryType type = cachedTypeOf(slot.entryPath(), slot.shortened(), attrs, statTime);
        if (type == null) {
            return null;
        }
        return new Found(new Entry(slot.parent(), slot.name(), type, slot.entryPath(), slot.shortened()), attrs);
    }

    /**
     * Notes that an entry was just made in {@code slot} (a new file, folder or link): after the miss its creation
     * followed, its next lookups (the kernel's stat of the new file) stat at once, without a probe.
     */
    public void made(Slot slot) {
        misses.made(slot.parent().dirId(), slot.encName());
    }

    /** What {@link #lookup(Slot, Class)} answers when nothing is stored under the slot itself. */
    private Found missing(Slot slot, Class<? extends BasicFileAttributes> attributeType) throws IOException {
        Entry alias = aliases.get(aliasKey(slot.parent(), slot.name()));
        if (alias != null && Files.exists(alias.payload(), LinkOption.NOFOLLOW_LINKS)) {
            return new Found(alias, null);
        }
        return storedDecomposed(slot, attributeType);
    }

    /**
     * The entry stored under the NFD spelling of {@code slot}'s name (as macOS tools write names), or
     * null: found without a listing of the folder, so that opening, creating or replacing such a name
     * before its folder was listed finds it instead of missing it (and making a second entry beside
     * it). One more encryption and stat, only for a missing name that has a decomposed form.
     */
    private Found storedDecomposed(Slot slot, Class<? extends BasicFileAttributes> attributeType) throws IOException {
        String nfd = java.text.Normalizer.normalize(slot.name(), java.text.Normalizer.Form.NFD);
        if (nfd.equals(slot.name())) {
            return null;
        }
        Slot stored = slot(slot.parent(), nfd);
        if (stored.entryPath().getFileSystem() == FileSystems.getDefault() && !stored.entryPath().toFile().exists()) {
            return null; // the usual answer, without the exception NIO's stat throws for it
        }
        BasicFileAttributes attrs;
        long statTime = entryTypes.now();
        try {
            attrs = Files.readAttributes(stored.entryPath(), attributeType, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
        EntryType type = cachedTypeOf(stored.entryPath(), stored.shortened(), attrs, statTime);
        if (type == null) {
            return null;
        }
        return new Found(new Entry(slot.parent(), slot.name(), type, stored.entryPath(), stored.shortened()), attrs);
    }

    /** {@link #typeOf}, for an entry folder from what its last probe found while it is unchanged. */
    private EntryType cachedTypeOf(Path entryPath, boolean shortened, BasicFileAttributes attrs, long statTime)
            throws IOException {
        if (!attrs.isDirectory()) {
            return typeOf(entryPath, shortened, attrs);
        }
        EntryType known = entryTypes.get(entryPath, attrs);
        if (known != null) {
            return known;
        }
        EntryType type = typeOf(entryPath, shortened, attrs);
        if (type != null && entryTypes.worthKeeping(attrs, statTime) && unchanged(entryPath, attrs)) {
            entryTypes.put(entryPath, attrs, statTime, type);
        }
        return type;
    }

    /** Whether {@code entryPath} is still the folder {@code attrs} describes: the probes saw that folder, not another. */
    private static boolean unchanged(Path entryPath, BasicFileAttributes attrs) throws IOException {
        try {
            return EntryTypeCache.sameFolder(attrs,
                    Files.readAttributes(entryPath, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** The type given by the single payload of an entry, or null if it has none or several (incomplete). */
    public static EntryType typeOf(Path entryPath, boolean shortened, BasicFileAttributes attrs) {
        if (!shortened && attrs.isRegularFile()) {
            return EntryType.FILE;
        }
        if (!attrs.isDirectory()) {
            return null;
        }
        EntryType found = null;
        for (EntryType t : EntryType.values()) {
            if (t == EntryType.FILE && !shortened) {
                continue;
            }
            // Once a payload is found, the others are expected absent: probe them the cheap way.
            if (isRegularFile(entryPath.resolve(t.payloadName()), found != null)) {
                if (found != null) {
                    return null;
                }
                found = t;
            }
        }
        return found;
    }

    /**
     * True if {@code p} itself (not a link's target) is a regular file. When it is {@code
     * probablyAbsent} and on the default file system, java.io asks first: its stat reports a missing
     * file without an exception, where NIO's throws one and fills its stack trace (on JDK 17 the
     * largest single cost of a folder's lookup, whose {@code symlink.c9r} is always missing). Its stat
     * follows links, so it can only say no; a yes is checked without following.
     */
    static boolean isRegularFile(Path p, boolean probablyAbsent) {
        if (probablyAbsent && p.getFileSystem() == FileSystems.getDefault() && !p.toFile().isFile()) {
            return false;
        }
        return Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * The folder at the cleartext path made of {@code nfcComponents}, following {@code dir.c9r}
     * pointers from the deepest cached folder on the way. Cached; {@link #invalidate} drops a moved
     * or deleted subtree.
     */
    public CiphertextDirectory directory(List<String> nfcComponents) throws IOException {
        long generation = folders.generation(); // before reading the cache: a move since then stores nothing
        FolderCache.Deepest cached = folders.deepest(nfcComponents);
        if (cached.depth() == nfcComponents.size()) {
            return cached.dir();
        }
        CiphertextDirectory dir = cached.dir();
        FolderCache.Node node = cached.node();
        for (int i = cached.depth(); i < nfcComponents.size(); i++) {
            String component = nfcComponents.get(i);
            String cleartextPath = "/" + String.join("/", nfcComponents.subList(0, i + 1));
            Entry e = folderEntry(dir, component, cleartextPath);
            dir = open(e, cleartextPath);
            // A folder moved or deleted while we resolved: our answer may be stale, so do not keep it.
            node = folders.put(node, component, dir, e.payload(), generation);
        }
        return dir;
    }

    /**
     * Whether the pointer of a cached folder still names it (the {@link FolderCache}'s check, at most
     * once a second per folder): a stat, enough when the pointer is the very file read before and had
     * settled then ({@link EntryTypeCache}'s reasons: time stamps in ticks, times set back by sync
     * tools); else the pointer is read again. Anything unreadable counts as changed: the folder is
     * then resolved afresh, which reports what is wrong.
     */
    private boolean pointerStillNames(FolderCache.Node node) {
        try {
            long statTime = System.currentTimeMillis();
            BasicFileAttributes now = Files.readAttributes(node.pointer, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!now.isRegularFile()) {
                return false;
            }
            if (node.seen instanceof SeenPointer seen && seen.stillSo(now, statTime)) {
                return true;
            }
            if (!node.dir.dirId().equals(DirIdFiles.read(node.pointer))) {
                return false;
            }
            node.seen = new SeenPointer(now, statTime);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** A cached folder's pointer as stat-ed just before it was read and found to name the folder. */
    private record SeenPointer(BasicFileAttributes attrs, long statTime) {
        boolean stillSo(BasicFileAttributes now, long nowTime) {
            return attrs.fileKey() != null && attrs.fileKey().equals(now.fileKey())
                    && attrs.lastModifiedTime().equals(now.lastModifiedTime()) && attrs.size() == now.size()
                    && attrs.lastModifiedTime().toMillis() <= statTime - EntryTypeCache.SETTLED_MILLIS
                    && nowTime - statTime <= EntryTypeCache.MAX_AGE_MILLIS;
        }
    }

    /**
     * The folder at {@code nfcComponents} if the cache holds it and trusts every folder on the way
     * (none is due for a look at its pointer), else null: nothing is read.
     */
    public CiphertextDirectory trustedDirectory(List<String> nfcComponents) {
        return folders.trusted(nfcComponents);
    }

    /**
     * The folder at {@code nfcComponents} if the cache holds it, else null; a folder on the way whose
     * trust time has passed has its pointer looked at (a stat, maybe a read), as every walk does.
     */
    public CiphertextDirectory cachedDirectory(List<String> nfcComponents) {
        FolderCache.Deepest cached = folders.deepest(nfcComponents);
        return cached.depth() == nfcComponents.size() ? cached.dir() : null;
    }

    /** Follows the {@code dir.c9r} of child {@code name}; refuses files, damaged pointers and loops. */
    public CiphertextDirectory child(CiphertextDirectory parent, String name, String cleartextPath) throws IOException {
        return open(folderEntry(parent, name, cleartextPath), cleartextPath);
    }

    /** The entry of child folder {@code name}; refuses a missing name and anything but a folder. */
    private Entry folderEntry(CiphertextDirectory parent, String name, String cleartextPath) throws IOException {
        Entry e = lookup(slot(parent, name), cleartextPath);
        if (e == null) {
            throw new NoSuchFileException(cleartextPath);
        }
        if (e.type() != EntryType.DIRECTORY) {
            throw new NotADirectoryComponentException(cleartextPath);
        }
        return e;
    }

    /** The folder a DIRECTORY entry points to. */
    public CiphertextDirectory open(Entry e, String cleartextPath) throws IOException {
        String id = DirIdFiles.read(e.payload());
        if (id == null) {
            throw new DamagedEntryException(cleartextPath, "damaged folder pointer (dir.c9r)");
        }
        CiphertextDirectory child = e.parent().child(id, storageOf(id));
        if (child == null) {
            throw new DamagedEntryException(cleartextPath, "folder pointer loops back to an ancestor");
        }
        return child;
    }

    /** The count of cache invalidations so far: taken before a lookup whose folder may be {@link #remember}ed. */
    public long cacheGeneration() {
        return folders.generation();
    }

    /**
     * Caches {@code dir}, just read from the {@code dir.c9r} of {@code e} (see {@link #open}) and
     * found in use (its storage folder listed or stat-ed), as the folder at {@code nfcComponents}:
     * only if the entry was found in the folder cached for its parent path and nothing was moved or
     * deleted since {@code generation} (taken before the entry's lookup; -1 caches nothing). Later
     * lookups below it then start from it instead of resolving it again; a folder cached there
     * before with another ID (repointed underneath) is replaced, with what was cached below it.
     */
    public void remember(List<String> nfcComponents, Entry e, CiphertextDirectory dir, long generation) {
        int n = nfcComponents.size();
        if (generation >= 0 && n > 0) {
            FolderCache.Deepest parent = folders.deepest(nfcComponents.subList(0, n - 1));
            if (parent.depth() == n - 1 && parent.dir().dirId().equals(e.parent().dirId())) {
                folders.put(parent.node(), nfcComponents.get(n - 1), dir, e.payload(), generation);
            }
        }
    }

    /**
     * Drops a folder cached at {@code nfcComponents}, if any: a new entry is about to take that free
     * name, so such a folder was removed or replaced underneath (a sync client) and must not stand
     * for the new one, whose entries would otherwise land in the old folder's storage.
     */
    public void forgetFolder(List<String> nfcComponents) {
        folders.forget(nfcComponents);
    }

    /** Drops cached folders at and below {@code nfcComponents} (after a move or delete). */
    public void invalidate(List<String> nfcComponents) {
        folders.invalidate(nfcComponents);
    }

    public void clearCaches() {
        folders.clear();
        aliases.clear();
        misses.clear();
    }

    /**
     * Remembers listed entries whose on-disk name is not the one their NFC name encrypts to, so that
     * lookups find them too: names another tool stored in a non-NFC form (spec 4), and, on a read-only
     * vault, conflict copies listed under the names they would get (spec 6). A lookup never lists a
     * folder by itself: creating a file must not cost a listing.
     */
    public void rememberListed(CiphertextDirectory dir, List<Entry> entries, boolean checkAll) {
        for (Entry e : entries) {
            if (!checkAll && isAscii(e.name())) {
                continue; // an ASCII name is its own NFC form, and its entry is where its slot says
            }
            Slot s = slot(dir, e.name());
            if (!s.entryPath().equals(e.entryPath()) || e.payload() != null && !e.payload().equals(s.payload(e.type()))) {
                aliases.put(aliasKey(dir, e.name()), e);
            }
        }
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0x7f) {
                return false;
            }
        }
        return true;
    }

    private static String aliasKey(CiphertextDirectory dir, String name) {
        return dir.dirId() + "/" + name;
    }

}
