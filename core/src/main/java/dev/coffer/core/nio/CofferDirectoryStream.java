package dev.coffer.core.nio;

import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.Entry;
import dev.coffer.core.names.EntryType;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * A folder's cleartext children, and java.nio's operations relative to the folder.
 *
 * <p>The listing is read when the iteration starts, as the default provider reads lazily, so a
 * stream opened only for its relative operations (a type-checked delete: FUSE rmdir) lists
 * nothing. It reads the folder's pointer afresh then (a listing is never stale, even within the
 * folder cache's trust time), so it is of the folder the path names at that moment; once read it
 * is a snapshot. A listing that fails comes as a {@link DirectoryIteratorException}. Each child path carries the entry the listing found, so stats
 * of the children cost no name encryption.
 *
 * <p>Relative operations resolve against the folder's path, and each first checks that this path
 * still leads to the folder opened (its directory ID, as the folder cache held it at the open; for a
 * folder not cached and trusted then, as the first relative operation finds it): a folder moved or replaced since
 * (a rename, a sync client) answers {@link NoSuchFileException}, so no operation ever acts in
 * another folder.
 * (The default provider follows an open folder wherever it moves; the vault reaches entries by path.)
 * An absolute path ignores the folder, as the API says. {@link #deleteFile} and
 * {@link #deleteDirectory} look the entry up once and delete it only if it is of that kind.
 */
final class CofferDirectoryStream implements SecureDirectoryStream<Path> {
    private final CofferFileSystem fs;
    /** The path as opened: children are named under it, as the default provider names them. */
    private final CofferPath listed;
    /** Where the folder was found (absolute, links followed), and what it is. */
    private final Located folder;
    /** The folder's directory ID, from the folder cache at the open, else at the first relative operation. */
    private volatile String anchorId;
    private final Filter<? super Path> filter;
    private boolean iterated;
    private volatile boolean closed;

    private CofferDirectoryStream(CofferFileSystem fs, CofferPath listed, Located folder, String anchorId,
            Filter<? super Path> filter) {
        this.fs = fs;
        this.listed = listed;
        this.folder = folder;
        this.anchorId = anchorId;
        this.filter = filter;
    }

    /**
     * Opens the folder at {@code dir}: it must exist and be a folder (after links, if {@code follow};
     * else a link is refused as {@code openat(O_NOFOLLOW)} refuses it). Nothing is listed yet.
     */
    static CofferDirectoryStream open(CofferPath dir, boolean follow, Filter<? super Path> filter) throws IOException {
        CofferFileSystem fs = dir.getFileSystem();
        Located l = fs.resolver.existing(dir, follow);
        if (!follow && l.entry() != null && l.entry().type() == EntryType.SYMLINK) {
            throw new FileSystemException(dir.toString(), null, "Too many levels of symbolic links");
        }
        if (!l.isRoot() && l.entry().type() != EntryType.DIRECTORY) {
            throw new NotDirectoryException(dir.toString());
        }
        // The folder as lookups below it find it, if the cache holds and trusts it: no I/O, as a
        // stream opened to be listed reads the folder's pointer afresh anyway. Else the first
        // relative operation looks it up (FUSE rmdir's, at once).
        CiphertextDirectory cached = fs.mapper.trustedDirectory(l.path().nfcNames());
        return new CofferDirectoryStream(fs, dir, l, cached == null ? null : cached.dirId(), filter);
    }

    @Override
    public synchronized Iterator<Path> iterator() {
        if (closed) {
            throw new ClosedDirectoryStreamException();
        }
        if (iterated) {
            throw new IllegalStateException("iterator() already called");
        }
        iterated = true;
        return new Iterator<>() {
            private Iterator<Path> children;

            @Override
            public boolean hasNext() {
                return !closed && children().hasNext();
            }

            @Override
            public Path next() {
                if (closed) {
                    throw new DirectoryIteratorException(new IOException("stream closed"));
                }
                return children().next();
            }

            private Iterator<Path> children() {
                if (children == null) {
                    children = readChildren().iterator();
                }
                return children;
            }
        };
    }

    private List<Path> readChildren() {
        try {
            List<Entry> entries;
            try {
                entries = FolderReader.entries(fs, folder);
            } catch (IOException | RuntimeException e) {
                fs.failIfClosed(e); // the file system closed under the listing
                throw e;
            }
            List<Path> accepted = new ArrayList<>(entries.size());
            for (Entry entry : entries) {
                Path child = listed.listedChild(entry);
                if (filter == null || filter.accept(child)) {
                    accepted.add(child);
                }
            }
            return accepted;
        } catch (IOException e) {
            throw new DirectoryIteratorException(e);
        }
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public SecureDirectoryStream<Path> newDirectoryStream(Path path, LinkOption... options) throws IOException {
        CofferPath target = target(path);
        boolean follow = !Arrays.asList(options).contains(LinkOption.NOFOLLOW_LINKS);
        CofferPath p = CofferFileSystemProvider.cast(path);
        CofferPath named = p.isAbsolute() ? p : listed.resolve(p);
        CofferDirectoryStream inner = open(target, follow, null);
        return new CofferDirectoryStream(fs, named, inner.folder, inner.anchorId, null);
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        return fs.provider().newByteChannel(target(path), options, attrs);
    }

    /** Deletes the file or link at {@code path}; a folder there is refused ("Is a directory", as unlinkat answers) and kept. */
    @Override
    public void deleteFile(Path path) throws IOException {
        deleteOfKind(path, false);
    }

    /** Deletes the empty folder at {@code path}; a file or link there is refused ({@link NotDirectoryException}) and kept. */
    @Override
    public void deleteDirectory(Path path) throws IOException {
        deleteOfKind(path, true);
    }

    /** One lookup for the type check and the delete, under the structure lock: nothing can slip in between. */
    private void deleteOfKind(Path path, boolean folderWanted) throws IOException {
        refuseDots(path);
        fs.checkWritable();
        fs.structurally(() -> {
            Located l = fs.resolver.locate(target(path));
            if (l.entry() != null && (l.entry().type() == EntryType.DIRECTORY) != folderWanted) {
                if (folderWanted) {
                    throw new NotDirectoryException(l.display());
                }
                throw new FileSystemException(l.display(), null, "Is a directory");
            }
            fs.writer.delete(l);
            return null;
        });
    }

    /** Renames like rename(2): atomic, an existing target of a compatible kind is replaced. */
    @Override
    public void move(Path srcpath, SecureDirectoryStream<Path> targetdir, Path targetpath) throws IOException {
        if (!(targetdir instanceof CofferDirectoryStream other) || other.fs != fs) {
            throw new ProviderMismatchException();
        }
        refuseDots(srcpath);
        refuseDots(targetpath);
        fs.checkWritable();
        fs.structurally(() -> {
            Located from = fs.resolver.existing(target(srcpath), false);
            fs.mover.move(from, fs.resolver.locate(other.target(targetpath)),
                    StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return null;
        });
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Class<V> type) {
        requireOpen();
        return anchoredView(folder.path(), true, type);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        CofferPath p = CofferFileSystemProvider.cast(path);
        requireOpen();
        return anchoredView(p.isAbsolute() ? p : folder.path().resolve(p), !p.isAbsolute(), type, options);
    }

    /**
     * The provider's view of {@code target}, whose every call but {@code name()} first checks that
     * this stream is open and, if {@code inFolder}, that its folder is still where it was (a view
     * outlives the call that made it).
     */
    @SuppressWarnings("unchecked")
    private <V extends FileAttributeView> V anchoredView(CofferPath target, boolean inFolder, Class<V> type, LinkOption... options) {
        V view = fs.provider().getFileAttributeView(target, type, options);
        if (view == null) {
            return null;
        }
        return (V) Proxy.newProxyInstance(CofferDirectoryStream.class.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> view.toString();
                };
            }
            if (!method.getName().equals("name")) {
                requireOpen();
                if (inFolder) {
                    requireSameFolder(target);
                }
            }
            try {
                return method.invoke(view, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    /**
     * "." and ".." name no entry of a folder: a delete or move of them is EINVAL, as unlinkat and
     * renameat answer; an empty name is ENOENT, as there.
     */
    private static void refuseDots(Path path) throws FileSystemException {
        Path name = path.getFileName();
        if (name == null || name.toString().isEmpty()) {
            throw new NoSuchFileException(path.toString());
        }
        if (name.toString().equals(".") || name.toString().equals("..")) {
            throw new FileSystemException(path.toString(), null, "Invalid argument");
        }
    }

    /** The path an operation acts on: an absolute one as it is, a relative one in this folder. */
    private CofferPath target(Path path) throws IOException {
        CofferPath p = CofferFileSystemProvider.cast(path);
        if (p.getFileSystem() != fs) {
            throw new ProviderMismatchException();
        }
        requireOpen();
        if (p.isAbsolute()) {
            return p;
        }
        CofferPath t = folder.path().resolve(p);
        requireSameFolder(t);
        return t;
    }

    private void requireOpen() {
        if (closed) {
            throw new ClosedDirectoryStreamException();
        }
        fs.checkOpen();
    }

    private void requireSameFolder(CofferPath target) throws IOException {
        String now;
        try {
            now = fs.mapper.directory(folder.path().nfcNames()).dirId();
        } catch (NoSuchFileException | NotDirectoryException gone) {
            now = null;
        }
        if (anchorId == null && now != null) {
            synchronized (this) {
                if (anchorId == null) {
                    anchorId = now; // not cached at the open: the folder the path names at the first operation
                }
            }
        }
        if (now == null || !now.equals(anchorId)) {
            throw new NoSuchFileException(target.toString(), null, "its folder was moved or replaced since the folder was opened");
        }
    }
}
