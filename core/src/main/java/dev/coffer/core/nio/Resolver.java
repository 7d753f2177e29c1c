package dev.coffer.core.nio;

import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.Entry;
import dev.coffer.core.names.EntryType;
import dev.coffer.core.names.Found;
import dev.coffer.core.names.PathMapper;
import dev.coffer.core.names.Slot;
import java.io.IOException;
import java.nio.file.FileSystemException;
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
        CiphertextDirectory parent = mapper.directory(names.subList(0, names.size() - 1));
        Slot slot = mapper.slot(parent, names.get(names.size() - 1));
        Found found = mapper.lookup(slot, abs.toString(), attributeType);
        return found == null ? new Located(abs, parent, slot, null) : new Located(abs, parent, slot, found.entry(), found.entryAttributes());
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
            throw new NoSuchFileException(path.toString());
        }
        return l;
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
