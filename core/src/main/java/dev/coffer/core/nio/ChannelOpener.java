package dev.coffer.core.nio;

import dev.coffer.core.names.EntryType;
import dev.coffer.core.names.PathMapper;
import dev.coffer.core.names.Slot;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.EnumSet;
import java.util.Set;

/**
 * Opens cleartext file channels with the semantics of the default provider (CREATE, CREATE_NEW,
 * TRUNCATE_EXISTING, APPEND, NOFOLLOW_LINKS, DSYNC, SYNC). Creating a file never lists its folder: it only
 * creates the one ciphertext entry its name maps to. A folder opened for reading gives a
 * {@link FolderChannel} (reads fail, {@code force} syncs the folder), as on Linux.
 */
final class ChannelOpener {
    private final Resolver resolver;
    private final PathMapper mapper;
    private final TreeWriter writer;
    private final OpenFiles openFiles;
    private final boolean readOnly;
    private final CreationAttributes creation;

    ChannelOpener(Resolver resolver, PathMapper mapper, TreeWriter writer, OpenFiles openFiles, boolean readOnly,
                  CreationAttributes creation) {
        this.resolver = resolver;
        this.mapper = mapper;
        this.writer = writer;
        this.openFiles = openFiles;
        this.readOnly = readOnly;
        this.creation = creation;
    }

    /** {@code attrs} apply only if the file is created (as in the default provider). */
    FileChannel open(CofferPath path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
        FileAttribute<?>[] ciphertextAttrs = creation.forCiphertext(attrs);
        boolean append = options.contains(StandardOpenOption.APPEND);
        boolean write = append || options.contains(StandardOpenOption.WRITE);
        boolean read = options.contains(StandardOpenOption.READ) || !write;
        boolean createNew = write && options.contains(StandardOpenOption.CREATE_NEW);
        boolean create = write && (createNew || options.contains(StandardOpenOption.CREATE));
        boolean truncate = write && !append && options.contains(StandardOpenOption.TRUNCATE_EXISTING);
        if (append && options.contains(StandardOpenOption.READ)) {
            throw new IllegalArgumentException("READ + APPEND not allowed");
        }
        if (append && options.contains(StandardOpenOption.TRUNCATE_EXISTING)) {
            throw new IllegalArgumentException("APPEND + TRUNCATE_EXISTING not allowed");
        }
        if (write && readOnly) {
            throw new ReadOnlyFileSystemException();
        }
        boolean follow = !options.contains(LinkOption.NOFOLLOW_LINKS);
        Located l = follow ? resolver.locateFollowing(path) : resolver.locate(path);
        if (l.isRoot() && !write) {
            return new FolderChannel(resolver.directoryOf(l).storage(), l.display());
        }
        if (l.isRoot()) {
            throw new FileSystemException(l.display(), null, "Is a directory");
        }
        Path payload;
        Slot made = null;
        if (l.entry() != null) {
            if (createNew) {
                throw new FileAlreadyExistsException(l.display());
            }
            if (l.entry().type() == EntryType.DIRECTORY && !write) {
                return new FolderChannel(resolver.directoryOf(l).storage(), l.display());
            }
            if (l.entry().type() == EntryType.DIRECTORY) {
                throw new FileSystemException(l.display(), null, "Is a directory");
            }
            if (l.entry().type() == EntryType.SYMLINK) {
                throw new FileSystemException(l.display(), null, "Too many levels of symbolic links or unable to access attributes of symbolic link");
            }
            payload = l.entry().payload();
        } else {
            if (!create) {
                throw new NoSuchFileException(l.display());
            }
            Slot slot = writer.writableSlot(l);
            if (slot.shortened()) {
                writer.buildEntry(slot, l);
            }
            payload = slot.payload(EntryType.FILE);
            made = slot;
        }
        OpenFiles.Handle h = openHandle(payload, write, made != null, truncate, l.display(), ciphertextAttrs);
        if (made != null) {
            mapper.made(made);
        }
        CleartextFileChannel.Sync sync = !write ? CleartextFileChannel.Sync.NONE
                : options.contains(StandardOpenOption.SYNC) ? CleartextFileChannel.Sync.ALL
                : options.contains(StandardOpenOption.DSYNC) ? CleartextFileChannel.Sync.DATA
                : CleartextFileChannel.Sync.NONE;
        return new CleartextFileChannel(openFiles, h, read, write, append, sync);
    }

    private OpenFiles.Handle openHandle(Path payload, boolean write, boolean fresh, boolean truncate, String display,
                                        FileAttribute<?>[] ciphertextAttrs) throws IOException {
        Set<StandardOpenOption> ct = EnumSet.of(StandardOpenOption.READ);
        if (!readOnly) {
            ct.add(StandardOpenOption.WRITE);
        }
        if (fresh) {
            ct.add(StandardOpenOption.CREATE_NEW);
        }
        try {
            return openFiles.open(payload, ct, display, truncate, fresh ? ciphertextAttrs : CreationAttributes.NONE);
        } catch (FileAlreadyExistsException e) {
            throw new FileAlreadyExistsException(display);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(display);
        } catch (AccessDeniedException e) {
            if (write || readOnly) {
                throw new AccessDeniedException(display);
            }
            // A ciphertext file without write permission can still be read.
            return openFiles.open(payload, EnumSet.of(StandardOpenOption.READ), display, false, CreationAttributes.NONE);
        }
    }
}
