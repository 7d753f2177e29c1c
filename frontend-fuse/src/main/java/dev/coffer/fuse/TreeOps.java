package dev.coffer.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import jnr.ffi.Pointer;
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

    private final Backing backing;
    private final NameForm names;
    private final Object unlinkedLock = new Object();
    /** A rename can put another file's bytes under a name that is open and streaming. */
    private final ContentChanges changes;
    /** The open file libfuse moved out of the way in the request this thread is processing, or null. */
    private final ThreadLocal<Kept> keptThisRequest = new ThreadLocal<>();

    /** An open file libfuse moved to a kept name: before a rename over it, or instead of an unlink. */
    private record Kept(String original, String keptPath) {}

    TreeOps(Backing backing, NameForm names, ContentChanges changes) {
        this.backing = backing;
        this.names = names;
        this.changes = changes;
    }

    /**
     * Lists a folder in one go (libfuse keeps the listing for the kernel's follow-up requests). No
     * stat first: opening the listing fails with NotDirectoryException for anything but a folder.
     */
    void readdir(String path, Pointer buf, FuseFillDir filler) throws IOException {
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

    void mkdir(String path, long mode) throws IOException {
        Path p = backing.resolveNew(path);
        Files.createDirectory(p);
        AttributeOps.applyMode(backing, p, mode);
    }

    /** fsyncs a folder: opened for reading, as on Linux, its channel's force syncs the folder. */
    void syncFolder(String path) throws IOException {
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

    void rmdir(String path) throws IOException {
        Path p = backing.resolve(path);
        if (!backing.attributes(p).isDirectory()) {
            throw new NotDirectoryException(path);
        }
        Files.delete(p);
    }

    /** A new request begins on this thread (libfuse may call several operations for one request). */
    void requestStarts() {
        if (keptThisRequest.get() != null) {
            keptThisRequest.remove();
        }
    }

    void unlink(String path) throws IOException {
        if (Backing.isHidden(path) && backing.isRestored(path)) {
            return; // libfuse's delete of a kept name whose file went back under its own name: it stays
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
     * <p>Renaming over an open file, libfuse first moves that file to a kept name ({@code .fuse_hidden…})
     * and then asks for the rename. So the rename checks its types against the kept file, and if it
     * fails, puts the kept file back: a failed rename(2) changes nothing, whereas libfuse would delete
     * the kept file at its last close.
     */
    void rename(String from, String to) throws IOException {
        changes.begin();
        try {
            if (Backing.isHidden(to)) {
                synchronized (unlinkedLock) { // libfuse keeps a file unlinked while open
                    backing.ensureUnlinkedFolder();
                    move(from, to, null);
                }
                keptThisRequest.set(new Kept(from, to));
            } else {
                Kept kept = keptThisRequest.get();
                if (kept != null && kept.original().equals(to)) {
                    keptThisRequest.remove();
                    renameOverKept(from, kept);
                } else {
                    move(from, to, null);
                }
            }
        } finally {
            changes.end();
        }
    }

    private void renameOverKept(String from, Kept kept) throws IOException {
        try {
            move(from, kept.original(), existing(backing.resolve(kept.keptPath())));
        } catch (IOException | RuntimeException e) {
            try {
                synchronized (unlinkedLock) {
                    move(kept.keptPath(), kept.original(), null);
                }
                backing.restored(kept.keptPath(), kept.original());
            } catch (IOException | RuntimeException restore) {
                e.addSuppressed(restore);
            }
            throw e;
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
        Files.newByteChannel(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
        AttributeOps.applyMode(backing, p, mode);
    }

    private BasicFileAttributes existing(Path p) throws IOException {
        try {
            return backing.attributes(p);
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }
}
