package dev.coffer.core.nio;

import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.Entry;
import dev.coffer.core.names.EntryType;
import dev.coffer.core.names.Found;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.names.PathMapper;
import dev.coffer.core.names.Slot;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.List;

/** Resolves cleartext paths to {@link Located} entries, following symbolic links when asked (at most 40). */
final class Resolver {
    private static final int MAX_LINKS = 40;

    private final PathMapper mapper;
    private final SymlinkTargets targets;
    /** What a lookup reads of an entry: the type a stat answers with, so it can hand them on. */
    private final Class<? extends BasicFileAttributes> attributeType;

    Resolver(PathMapper mapper, SymlinkTargets targets, boolean posix) {
        this.mapper = mapper;
        this.targets = targets;
        this.attributeType = posix ? PosixFileAttributes.class : BasicFileAttributes.class;
    }

    /** The entry at {@code path} itself (a symlink is not followed). */
    Located locate(CofferPath path) throws IOException {
        CofferPath abs = path.toAbsolutePath().normalize();
        List<String> names = abs.nfcNames();
        if (names.isEmpty()) {
            return new Located(abs, null, null, null);
        }
        long generation = mapper.cacheGeneration(); // before the lookup: see PathMapper.open
        CiphertextDirectory parent = mapper.directory(names.subList(0, names.size() - 1));
        Slot slot = mapper.slot(parent, names.get(names.size() - 1));
        Found found = mapper.lookup(slot, attributeType);
        return found == null ? new Located(abs, parent, slot, null)
                : new Located(abs, parent, slot, found.entry(), found.entryAttributes(), generation);
    }

    /** The entry at {@code path}, following a symlink at the last component (and the links it points to). */
    Located locateFollowing(CofferPath path) throws IOException {
        Located l = locate(path);
        for (int i = 0; i < MAX_LINKS; i++) {
            if (l.entry() == null || l.entry().type() != EntryType.SYMLINK) {
                return l;
            }
            String target = targets.read(l.entry(), l.display());
            CofferPath next = l.path().getParent().resolve(l.path().getFileSystem().getPath(target));
            l = locate(next);
        }
        throw new FileSystemException(path.toString(), null, "Too many levels of symbolic links");
    }

    /** Like {@link #locate} but the entry must exist. */
    Located existing(CofferPath path, boolean follow) throws IOException {
        Located l = follow ? locateFollowing(path) : locate(path);
        if (!l.exists()) {
            throw new MissingEntryException(path.toString());
        }
        return l;
    }

    /**
     * Like {@link #existing}, for reading attributes: a file path from a directory stream is located
     * by the entry its listing found, without encrypting its name, when the disk still agrees (see
     * {@link #fromListing}); any other path, or a disagreement, is resolved as usual.
     */
    Located existingForStat(CofferPath path, boolean follow) throws IOException {
        Entry listed = path.listedEntry();
        Located l = listed == null ? null : fromListing(path, listed);
        return l != null ? l : existing(path, follow);
    }

    /**
     * The listed ordinary file at {@code path}, if its folder still resolves to the listed one and its
     * ciphertext file is still a regular file (one stat, handed on); else null. The slot is where the
     * entry was listed. Only for stats: a file is no symlink, so following does not matter.
     */
    private Located fromListing(CofferPath path, Entry listed) throws IOException {
        if (listed.type() != EntryType.FILE || listed.shortened() || listed.payloadCopy() != null) {
            return null;
        }
        List<String> names = path.nfcNames();
        CiphertextDirectory parent = mapper.directory(names.subList(0, names.size() - 1));
        if (!parent.dirId().equals(listed.parent().dirId())) {
            return null; // the folder moved or was replaced since the listing
        }
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(listed.entryPath(), attributeType, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
        if (!attrs.isRegularFile()) {
            return null;
        }
        String onDisk = listed.entryPath().getFileName().toString();
        Slot slot = new Slot(parent, listed.name(), onDisk.substring(0, onDisk.length() - LongNames.C9R.length()),
                listed.entryPath(), false);
        return new Located(path, parent, slot, new Entry(parent, listed.name(), EntryType.FILE, listed.entryPath(), false), attrs, -1);
    }

    /** The folder a located DIRECTORY entry (or the root) stands for. */
    CiphertextDirectory directoryOf(Located l) throws IOException {
        if (l.isRoot()) {
            return mapper.root();
        }
        Entry e = l.entry();
        if (e == null) {
            throw new NoSuchFileException(l.display());
        }
        if (e.type() != EntryType.DIRECTORY) {
            throw new java.nio.file.NotDirectoryException(l.display());
        }
        return mapper.open(e, l.display());
    }
}
