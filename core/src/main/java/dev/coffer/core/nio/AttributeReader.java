package dev.coffer.core.nio;

import dev.coffer.core.content.OpenFile;
import dev.coffer.core.content.SectorLayout;
import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.Entry;
import dev.coffer.core.names.PathMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.List;

/**
 * Reads a cleartext entry's attributes without reading file contents: the cleartext size comes
 * from the ciphertext length (spec 5.3; a damaged length lists as 0), or from the open file.
 */
final class AttributeReader {
    private final PathMapper mapper;
    private final SectorLayout layout;
    private final OpenFiles openFiles;
    private final boolean posix;

    AttributeReader(PathMapper mapper, SectorLayout layout, OpenFiles openFiles, boolean posix) {
        this.mapper = mapper;
        this.layout = layout;
        this.openFiles = openFiles;
        this.posix = posix;
    }

    CofferAttributes read(Located l) throws IOException {
        if (l.isRoot()) {
            return ofDirectory(l, storageAttributes(mapper.root().storage()));
        }
        Entry e = l.entry();
        switch (e.type()) {
            case FILE -> {
                Path payload = e.payload();
                BasicFileAttributes ct = payloadAttributes(l, payload);
                OpenFile open = openFiles.get(payload, ct.fileKey());
                long size = open != null ? open.size() : Math.max(0, layout.cleartextSize(ct.size()));
                return new CofferAttributes(CofferAttributes.Kind.FILE, size, ct, posixOrNull(ct));
            }
            case SYMLINK -> {
                BasicFileAttributes ct = ciphertext(e.payload());
                long size = Math.max(0, layout.cleartextSize(ct.size()));
                return new CofferAttributes(CofferAttributes.Kind.SYMLINK, size, ct, null);
            }
            default -> {
                List<String> names = l.path().nfcNames();
                CiphertextDirectory cached = mapper.cachedDirectory(names);
                CiphertextDirectory dir = cached != null ? cached : mapper.open(e, l.display());
                BasicFileAttributes storage = storageAttributes(dir.storage());
                if (cached == null && storage != null) {
                    mapper.remember(names, e, dir, l.cacheGeneration()); // read afresh, its storage folder is there
                }
                return ofDirectory(l, storage);
            }
        }
    }

    /** A storage folder's attributes (one stat), or null if it is missing or no folder. */
    private BasicFileAttributes storageAttributes(Path storage) throws IOException {
        try {
            BasicFileAttributes ct = ciphertext(storage);
            return ct.isDirectory() ? ct : null;
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * A folder's attributes: its storage folder's, or its entry folder's when the storage folder is
     * missing (a damaged pointer still lists, so it must stat).
     */
    private CofferAttributes ofDirectory(Located l, BasicFileAttributes storage) throws IOException {
        BasicFileAttributes ct = storage;
        if (ct == null) {
            if (l.isRoot()) {
                throw new NoSuchFileException(l.display());
            }
            ct = l.entryAttributes() != null && l.entryAttributes().isDirectory() ? l.entryAttributes() : entryFolder(l);
        }
        return new CofferAttributes(CofferAttributes.Kind.DIRECTORY, ct.size(), ct, posixOrNull(ct));
    }

    private BasicFileAttributes entryFolder(Located l) throws IOException {
        try {
            return ciphertext(l.entry().entryPath());
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(l.display());
        }
    }

    /**
     * A file's ciphertext attributes: those its lookup just read when the payload is the entry
     * itself (an ordinary file: one stat per getattr, not two), else read now.
     */
    private BasicFileAttributes payloadAttributes(Located l, Path payload) throws IOException {
        BasicFileAttributes fromLookup = l.entryAttributes();
        boolean sameKind = fromLookup != null && (!posix || fromLookup instanceof PosixFileAttributes);
        if (sameKind && payload.equals(l.entry().entryPath())) {
            return fromLookup;
        }
        return ciphertext(payload);
    }

    private BasicFileAttributes ciphertext(Path p) throws IOException {
        Class<? extends BasicFileAttributes> type = posix ? PosixFileAttributes.class : BasicFileAttributes.class;
        return Files.readAttributes(p, type, LinkOption.NOFOLLOW_LINKS);
    }

    private static PosixFileAttributes posixOrNull(BasicFileAttributes a) {
        return a instanceof PosixFileAttributes p ? p : null;
    }

    /** The ciphertext file or folder whose times and permissions stand for this entry. */
    Path attributeCarrier(Located l) throws IOException {
        if (l.isRoot()) {
            return mapper.root().storage();
        }
        Entry e = l.entry();
        return e.type() == dev.coffer.core.names.EntryType.DIRECTORY ? folderCarrier(l) : e.payload();
    }

    /**
     * A folder's storage folder (from the mapper's path cache, so that {@code dir.c9r} is not read
     * again), or its entry folder when the storage folder is missing (damaged pointer).
     */
    private Path folderCarrier(Located l) throws IOException {
        Path storage = storageOf(l);
        return Files.isDirectory(storage) ? storage : l.entry().entryPath();
    }

    /** The storage folder of a located folder: from the mapper's path cache, else from its {@code dir.c9r}. */
    private Path storageOf(Located l) throws IOException {
        CiphertextDirectory cached = mapper.cachedDirectory(l.path().nfcNames());
        return (cached != null ? cached : mapper.open(l.entry(), l.display())).storage();
    }
}
