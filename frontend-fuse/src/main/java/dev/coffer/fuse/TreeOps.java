package dev.coffer.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import jnr.ffi.Pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import ru.serce.jnrfuse.FuseFillDir;
import ru.serce.jnrfuse.struct.FileStat;

/**
 * Names and folders: readdir, mkdir, rmdir, unlink, rename with POSIX semantics (an existing
 * target is replaced atomically; a folder only over an empty folder), symlink, readlink, and mknod
 * for plain files. Unlink and rmdir check the entry's type first so that neither removes the other
 * kind, whatever the backing's {@code Files.delete} would do.
 *
 * <p>Not responsible for contents or attributes.
 */
final class TreeOps {
    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    private static final byte[] DOT = {'.', 0};
    private static final byte[] DOTDOT = {'.', '.', 0};
    /** The name a file goes back under when its own cannot be used ({@link #putBack}); a number follows. */
    static final String KEPT_FILE_NAME = "Coffer kept file";
    private static final int PUT_BACK_TRIES = 20;
    private static final Logger LOG = LoggerFactory.getLogger(TreeOps.class);

    private final Backing backing;
    private final NameForm names;
    private final Object unlinkedLock = new Object();
    /** A rename can put another file's bytes under a name that is open and streaming. */
    private final ContentChanges changes;
    private final NewEntryModes modes;

    TreeOps(Backing backing, NameForm names, ContentChanges changes) {
        this.backing = backing;
        this.names = names;
        this.changes = changes;
        this.modes = new NewEntryModes(backing);
    }

    /**
     * Lists a folder in one go (libfuse keeps the listing for the kernel's follow-up requests). No
     * stat first: opening the listing fails with NotDirectoryException for anything but a folder.
     */
    void readdir(String path, Pointer buf, FuseFillDir filler) throws IOException {
        if (path == null) {
            throw new NoSuchFileException("(a removed folder)"); // the kernel lists no removed folder; a guard
        }
        Path dir = backing.resolve(path);
        filler.apply(buf, ByteBuffer.wrap(DOT), null, 0);
        filler.apply(buf, ByteBuffer.wrap(DOTDOT), null, 0);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                if (backing.isReserved(entry)) {
                    continue;
                }
                byte[] name = names.present(entry.getFileName().toString()).getBytes(StandardCharsets.UTF_8);
                if (filler.apply(buf, ByteBuffer.wrap(Arrays.copyOf(name, name.length + 1)), null, 0) != 0) {
                    throw new IOException("readdir buffer full");
                }
            }
        }
    }

    /** A new folder, with its permission bits given at its creation ({@link NewEntryModes}). */
    void mkdir(String path, long mode) throws IOException {
        Path p = backing.resolveNew(path);
        Files.createDirectory(p, modes.atCreation(mode));
        modes.afterCreation(p, mode);
    }

    /**
     * fsyncs a folder: opened for reading, as on Linux, its channel's force syncs the folder. A null
     * path (libfuse's for a folder removed while a program holds it open) has nothing left to sync:
     * success, as ext4 answers.
     */
    void syncFolder(String path) throws IOException {
        if (path == null) {
            return;
        }
        Path p = backing.resolve(path);
        FileChannel ch;
        try {
            ch = FileChannel.open(p, StandardOpenOption.READ);
        } catch (UnsupportedOperationException e) {
            return;
        } catch (FileSystemException e) {
            // A store that cannot open a folder at all (Jimfs, in memory) has nothing to make durable.
            if (p.getFileSystem() != FileSystems.getDefault() && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            throw e;
        }
        try (ch) {
            ch.force(true);
        }
    }

    /**
     * Deletes an empty folder (a full one: ENOTEMPTY), never a file a sync client put under the name
     * since the kernel's lookup (ENOTDIR): where the backing's folders are secure directory streams
     * (the vault, the default provider on Linux, Jimfs), one type-checked delete in the parent, so a
     * file that takes the name meanwhile is refused and kept. Else, or where the parent cannot be
     * opened for reading (a plain folder without read permission, which rmdir(2) does not need), the
     * type is asked first, then the delete.
     */
    void rmdir(String path) throws IOException {
        Path p = backing.resolve(path);
        if (backing.isRoot(p)) {
            throw new FileSystemException(path, null, "Device or resource busy"); // the kernel sends none; a guard
        }
        DirectoryStream<Path> siblings = openParent(p);
        if (siblings != null) {
            try (siblings) {
                if (siblings instanceof SecureDirectoryStream<Path> secure) {
                    secure.deleteDirectory(p.getFileName());
                    return;
                }
            }
        }
        if (!backing.isDirectory(p)) {
            throw new NotDirectoryException(path);
        }
        Files.delete(p);
    }

    /** A stream on the folder that holds {@code p}, or null where it cannot be read (nothing to list it for). */
    private static DirectoryStream<Path> openParent(Path p) throws IOException {
        Path parent = p.getParent();
        if (parent == null) {
            return null;
        }
        try {
            return Files.newDirectoryStream(parent);
        } catch (AccessDeniedException unreadable) {
            return null;
        }
    }

    /** A new request begins on this thread (libfuse may call several operations for one request). */
    void requestStarts() {
        backing.kept().requestStarts();
    }

    void unlink(String path) throws IOException {
        if (KeptNames.isKept(path) && backing.kept().restoredOf(path) != null) {
            return; // libfuse's delete of a kept name whose file went back under a name of its own: it stays
        }
        // No type check of our own: the kernel sends unlink only for what its lookup found not to be
        // a folder (it answers EISDIR itself), and the check cost a stat per file of rm -rf. Should
        // the name have become a folder since (a sync client), only an empty one is deleted.
        try {
            Files.delete(backing.resolve(path));
        } catch (DirectoryNotEmptyException e) {
            throw new FileSystemException(path, null, "Is a directory"); // what unlink(2) says of a folder
        }
    }

    /**
     * rename(2): replaces an existing target of a compatible type, atomically where the backing can.
     *
     * <p>Renaming over an open file, libfuse first moves that file to a kept name ({@link KeptNames})
     * and then asks for the rename. So the rename checks its types against the kept file, and if it
     * fails, puts the kept file back ({@link #putBack}): a failed rename(2) changes nothing, whereas
     * libfuse would delete the kept file at its last close. A program's own rename to a kept name is
     * refused (EPERM), like creating one ({@link Backing#resolveNew}).
     */
    void rename(String from, String to) throws IOException {
        KeptNames kept = backing.kept();
        changes.begin();
        try {
            if (KeptNames.isKept(to)) {
                if (!kept.lookedUpThisRequest(to)) {
                    throw new FileSystemException(to, null, "Operation not permitted");
                }
                synchronized (unlinkedLock) { // libfuse keeps a file unlinked, or replaced, while open
                    backing.ensureUnlinkedFolder();
                    try {
                        move(from, to, null);
                    } catch (IOException e) {
                        if (!movedAnyway(from, to)) {
                            throw e;
                        }
                        // Made but not known to be durable (a folder's fsync failed): a crash's leftovers in the
                        // reserved folder are cleared at the next mount anyway. Failing here would leave the file
                        // there unrecorded, and the end of the mount would delete it.
                        LOG.debug("hiding an open file: the move was made, its folder fsync failed ({})", e.getClass().getName());
                    }
                }
                kept.movedAway(from, to);
                kept.renamed(from, to);
                return;
            }
            String keptPath = kept.takeMovedAway(to);
            if (keptPath == null) {
                move(from, to, null);
                kept.renamed(from, to);
                return;
            }
            try {
                move(from, to, existing(backing.resolve(keptPath)));
            } catch (IOException | RuntimeException e) {
                if (!(e instanceof IOException) || !movedAnyway(from, to)) {
                    putBack(keptPath, to, e);
                    throw e;
                }
                // Made, but its folder's fsync failed. libfuse has hidden the replaced file already and
                // cannot take that back, so the rename counts as done (an error would have the file
                // put back as a copy beside the new one at every such save), and the failure is logged.
                LOG.warn("a rename over an open file was made, but the disk reported an error saving it for good ({})",
                        e.getClass().getName());
            }
            kept.renamed(from, to);
        } finally {
            changes.end();
        }
    }

    /**
     * After a failed rename over an open file: moves the file libfuse had moved away back under its
     * name, or, where that cannot be done (a long name on a full disk) or the name is taken (a program
     * or sync client got there first), under a short name of Coffer's in its folder, else in the top
     * folder; libfuse's kept name is served from there. Never replaces anything.
     */
    private void putBack(String keptPath, String original, Throwable failure) {
        String folder = original.substring(0, original.lastIndexOf('/') + 1);
        List<String> places = new ArrayList<>();
        places.add(original);
        for (int i = 1; i <= PUT_BACK_TRIES; i++) {
            places.add(folder + KEPT_FILE_NAME + " " + i);
        }
        if (!folder.equals("/")) {
            places.addAll(topFolderPlaces());
        }
        String place = moveToFirstFree(keptPath, places, failure);
        backing.kept().restored(keptPath, place, place == null ? null : fileKeyOrNull(place));
        if (place == null) {
            markToKeep(keptPath, failure);
            LOG.warn("a rename over an open file failed, and the file it would have replaced could not be put back yet: "
                    + "Coffer tries again when the mount ends, and at the next mount");
        } else if (!place.equals(original)) {
            LOG.warn("a rename over an open file failed, and the file it would have replaced could not go back under its "
                    + "name: it is now \"{}\" in {}", KeptNames.lastName(place), place.startsWith(folder) ? "its folder" : "the top folder");
        }
    }

    /**
     * Renames a kept file that could go nowhere, within the reserved folder, to a name of its own that
     * says to keep it ({@link Backing#KEEP_PREFIX} and a random part: libfuse's kept names repeat from
     * one session to the next): the reserved folder's clearing deletes everything else in it. It stays
     * served by its kept name.
     */
    private void markToKeep(String keptPath, Throwable failure) {
        String keepName = Backing.KEEP_PREFIX + java.util.UUID.randomUUID();
        try {
            synchronized (unlinkedLock) {
                Files.move(backing.resolve(keptPath), backing.reservedPath(keepName));
            }
            backing.kept().markedToKeep(keptPath, keepName);
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e); // it stays under its kept name, kept from libfuse's delete for this session
        }
    }

    /**
     * When the mount starts and ends: files kept after a failed rename over them that could go back
     * nowhere then (this session's, or marked to keep by an earlier one) go to the top folder now, if
     * they can. Nothing is recorded for their kept names: when the mount starts they are an earlier
     * session's, and when it ends nothing is served any more.
     */
    void rescueUnplaced() throws IOException {
        for (String name : backing.keptToRescue()) {
            IOException failure = new IOException("could not put back a file kept after a failed rename");
            String place = moveToFirstFree(backing.reservedPath(name), topFolderPlaces(), failure);
            if (place != null) {
                LOG.warn("a file kept after a failed rename over it is now \"{}\" in the top folder", KeptNames.lastName(place));
            } else {
                if (!name.startsWith(Backing.KEEP_PREFIX)) {
                    markToKeep("/" + name, failure); // not marked yet: the next mount's clearing would delete it
                }
                LOG.warn("a file kept after a failed rename over it could still not be saved in the vault's folders; "
                        + "it stays in {} ({})", Backing.UNLINKED, failure.getClass().getName());
            }
        }
    }

    private Object fileKeyOrNull(String fusePath) {
        try {
            return backing.fileKeyOrNull(backing.resolve(fusePath));
        } catch (IOException e) {
            return null;
        }
    }

    private static List<String> topFolderPlaces() {
        List<String> places = new ArrayList<>();
        for (int i = 1; i <= PUT_BACK_TRIES; i++) {
            places.add("/" + KEPT_FILE_NAME + " " + i);
        }
        return places;
    }

    /** Moves the kept file to the first of {@code places} that is free and takes it, without replacing; null if none. */
    private String moveToFirstFree(String keptPath, List<String> places, Throwable failure) {
        Path kept;
        try {
            kept = backing.resolve(keptPath);
        } catch (IOException e) {
            failure.addSuppressed(e);
            return null;
        }
        return moveToFirstFree(kept, places, failure);
    }

    private String moveToFirstFree(Path kept, List<String> places, Throwable failure) {
        for (String place : places) {
            try {
                if (existing(backing.resolve(place)) != null) {
                    continue;
                }
                synchronized (unlinkedLock) {
                    Files.move(kept, backing.resolve(place)); // no REPLACE_EXISTING: what is there is not replaced
                }
                return place;
            } catch (IOException | RuntimeException e) {
                failure.addSuppressed(e);
                if (e instanceof IOException && movedAnyway(kept, place)) {
                    return place; // made, though not known to be durable (a folder's fsync failed)
                }
            }
        }
        return null;
    }

    /** True if a move that threw has happened all the same: the source is gone and the target is there. */
    private boolean movedAnyway(String from, String to) {
        try {
            return movedAnyway(backing.resolve(from), to);
        } catch (IOException e) {
            return false;
        }
    }

    private boolean movedAnyway(Path from, String to) {
        try {
            return existing(from) == null && existing(backing.resolve(to)) != null;
        } catch (IOException e) {
            return false;
        }
    }

    /** Moves {@code from} to {@code to}; {@code replaced} is the target's attributes if it was moved away just before. */
    private void move(String from, String to, BasicFileAttributes replaced) throws IOException {
        Path source = backing.resolve(from);
        Path target = backing.resolve(to);
        BasicFileAttributes s = backing.attributes(source);
        BasicFileAttributes t = replaced != null ? replaced : existing(target);
        if (t != null) {
            if (s.isDirectory() && !t.isDirectory()) {
                throw new NotDirectoryException(to);
            }
            if (!s.isDirectory() && t.isDirectory()) {
                throw new FileSystemException(to, null, "Is a directory");
            }
        }
        try {
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (java.nio.file.AtomicMoveNotSupportedException e) {
            Files.move(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    void symlink(String target, String linkPath) throws IOException {
        KernelNames.requireDecoded(target); // a target that did not decode would point elsewhere
        Files.createSymbolicLink(backing.resolveNew(linkPath), backing.fileSystem().getPath(target));
    }

    /** Copies the link's target, NUL-terminated and cut to {@code size} bytes as readlink(2) callers expect. */
    void readlink(String path, Pointer buf, long size) throws IOException {
        byte[] target = Files.readSymbolicLink(backing.resolve(path)).toString().getBytes(StandardCharsets.UTF_8);
        if (size <= 0) {
            return;
        }
        int n = (int) Math.min(target.length, size - 1);
        buf.put(0, target, 0, n);
        buf.putByte(n, (byte) 0);
    }

    /** Only plain files: FIFOs, sockets and devices cannot be stored (EPERM, as on file systems without them). */
    void mknod(String path, long mode) throws IOException {
        if ((mode & S_IFMT) != S_IFREG) {
            throw new FileSystemException(path, null, "Operation not permitted");
        }
        Path p = backing.resolveNew(path);
        Files.newByteChannel(p, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), modes.atCreation(mode)).close();
        modes.afterCreation(p, mode);
    }

    private BasicFileAttributes existing(Path p) throws IOException {
        try {
            return backing.attributes(p);
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }
}
