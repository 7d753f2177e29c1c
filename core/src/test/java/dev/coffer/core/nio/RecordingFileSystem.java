package dev.coffer.core.nio;

import dev.coffer.core.testing.DelegatingChannel;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A file system that forwards to the default one and records which folders were listed, which
 * files were opened, stat-ed and deleted, so tests can prove what an operation does NOT touch and
 * pin what a request costs. Public for the frontends' tests (a test-jar class).
 */
public final class RecordingFileSystem extends FileSystem {
    public final List<String> listed = Collections.synchronizedList(new ArrayList<>());
    public final List<String> opened = Collections.synchronizedList(new ArrayList<>());
    /** Paths whose attributes were read or whose existence was checked (what a stat costs). */
    public final List<String> statted = Collections.synchronizedList(new ArrayList<>());
    /** Paths deleted (files and folders). */
    public final List<String> deleted = Collections.synchronizedList(new ArrayList<>());
    /**
     * Folders whose fsync fails with EIO's message from now on (the change itself is made, as a
     * disk's failing journal would leave it); asked at each fsync, with the folder's path.
     */
    public volatile Predicate<Path> folderSyncFails = folder -> false;
    /** Whether a file's fsync fails (EIO); asked of file channels opened while it is not the default. */
    public volatile Predicate<Path> fileSyncFails = null;
    /** Whether file channels opened from now on obey {@link #fileWriteBudget} and {@link #fileCutsFail}. */
    public volatile boolean injectsFileFaults;
    /** Bytes that positional file writes may still store before they fail like a full disk (ENOSPC's message). */
    public final java.util.concurrent.atomic.AtomicLong fileWriteBudget =
            new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);
    /** While set, positional file writes wait until it opens (a slow store: a write behind is still running). */
    public volatile java.util.concurrent.CountDownLatch fileWriteGate;
    /** Whether a truncate that would shorten a file fails (EIO's message) and changes nothing. */
    public volatile boolean fileCutsFail;
    /** Paths whose delete fails (EPERM's message, as an immutable file's), asked at each delete. */
    public volatile Predicate<Path> deleteFails = p -> false;
    /** The system's message of such a failing fsync: EIO's by default. */
    public volatile String folderSyncError = "Input/output error";
    private final AtomicInteger moves = new AtomicInteger();
    /** Every provider call, as "operation path" (tests that prove some code touches no file at all). */
    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    private final FileSystem base = FileSystems.getDefault();
    private final Provider provider = new Provider();

    /** {@code p} (on the default file system) as a path of this one. */
    public Path wrap(Path p) {
        return new RPath(p);
    }

    private Path unwrap(Path p) {
        return ((RPath) p).delegate;
    }

    /** Every folder's fsync fails from the {@code n}th move (rename) after this call on (n = 0: at once). */
    public void failFolderSyncsFromMove(int n) {
        int start = moves.get();
        folderSyncFails = folder -> moves.get() >= start + n;
    }

    /** A copy of every provider call so far, as "operation path", in order. */
    public List<String> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    private Path record(String operation, Path p) {
        calls.add(operation + " " + p);
        return unwrap(p);
    }

    /** Forgets everything recorded so far. */
    public void reset() {
        listed.clear();
        opened.clear();
        statted.clear();
        deleted.clear();
    }

    @Override public FileSystemProvider provider() { return provider; }
    @Override public void close() { }
    @Override public boolean isOpen() { return true; }
    @Override public boolean isReadOnly() { return false; }
    @Override public String getSeparator() { return "/"; }
    @Override public Iterable<Path> getRootDirectories() { return List.of(wrap(base.getPath("/"))); }
    @Override public Iterable<FileStore> getFileStores() { return base.getFileStores(); }
    @Override public Set<String> supportedFileAttributeViews() { return base.supportedFileAttributeViews(); }
    @Override public Path getPath(String first, String... more) { return wrap(base.getPath(first, more)); }
    @Override public PathMatcher getPathMatcher(String s) { return p -> base.getPathMatcher(s).matches(unwrap(p)); }
    @Override public UserPrincipalLookupService getUserPrincipalLookupService() { return base.getUserPrincipalLookupService(); }
    @Override public WatchService newWatchService() { throw new UnsupportedOperationException(); }

    private final class RPath implements Path {
        final Path delegate;

        RPath(Path delegate) { this.delegate = delegate; }

        private Path w(Path p) { return p == null ? null : new RPath(p); }

        @Override public FileSystem getFileSystem() { return RecordingFileSystem.this; }
        @Override public boolean isAbsolute() { return delegate.isAbsolute(); }
        @Override public Path getRoot() { return w(delegate.getRoot()); }
        @Override public Path getFileName() { return w(delegate.getFileName()); }
        @Override public Path getParent() { return w(delegate.getParent()); }
        @Override public int getNameCount() { return delegate.getNameCount(); }
        @Override public Path getName(int i) { return w(delegate.getName(i)); }
        @Override public Path subpath(int a, int b) { return w(delegate.subpath(a, b)); }
        @Override public boolean startsWith(Path o) { return delegate.startsWith(unwrap(o)); }
        @Override public boolean endsWith(Path o) { return delegate.endsWith(unwrap(o)); }
        @Override public Path normalize() { return w(delegate.normalize()); }
        @Override public Path resolve(Path o) { return w(delegate.resolve(unwrap(o))); }
        @Override public Path relativize(Path o) { return w(delegate.relativize(unwrap(o))); }
        @Override public URI toUri() { return delegate.toUri(); }
        @Override public Path toAbsolutePath() { return w(delegate.toAbsolutePath()); }
        @Override public Path toRealPath(LinkOption... o) throws IOException { return w(delegate.toRealPath(o)); }
        @Override public WatchKey register(WatchService s, WatchEvent.Kind<?>[] k, WatchEvent.Modifier... m) { throw new UnsupportedOperationException(); }
        @Override public int compareTo(Path o) { return delegate.compareTo(unwrap(o)); }
        @Override public boolean equals(Object o) { return o instanceof RPath r && r.delegate.equals(delegate); }
        @Override public int hashCode() { return delegate.hashCode(); }
        @Override public String toString() { return delegate.toString(); }
    }

    private final class Provider extends FileSystemProvider {
        private final FileSystemProvider d = base.provider();

        @Override public String getScheme() { return "recording"; }
        @Override public FileSystem newFileSystem(URI uri, Map<String, ?> env) { throw new UnsupportedOperationException(); }
        @Override public FileSystem getFileSystem(URI uri) { return RecordingFileSystem.this; }
        @Override public Path getPath(URI uri) { return wrap(d.getPath(uri)); }

        @Override
        public SeekableByteChannel newByteChannel(Path p, Set<? extends OpenOption> o, FileAttribute<?>... a) throws IOException {
            opened.add(p.toString());
            return d.newByteChannel(record("open", p), o, a);
        }

        @Override
        public FileChannel newFileChannel(Path p, Set<? extends OpenOption> o, FileAttribute<?>... a) throws IOException {
            opened.add(p.toString());
            FileChannel ch = d.newFileChannel(record("open", p), o, a);
            if (!Files.isDirectory(unwrap(p), LinkOption.NOFOLLOW_LINKS)) {
                Predicate<Path> fails = fileSyncFails;
                if (fails == null && !injectsFileFaults) {
                    return ch;
                }
                return new DelegatingChannel(ch) {
                    @Override
                    public void force(boolean metaData) throws IOException {
                        if (fails != null && fails.test(p)) {
                            throw new IOException("Input/output error");
                        }
                        super.force(metaData);
                    }

                    @Override
                    public int write(ByteBuffer src, long position) throws IOException {
                        java.util.concurrent.CountDownLatch gate = fileWriteGate;
                        if (gate != null) {
                            try {
                                gate.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                throw new java.io.InterruptedIOException();
                            }
                        }
                        long left = fileWriteBudget.get();
                        if (left <= 0) {
                            throw new IOException("No space left on device");
                        }
                        ByteBuffer part = src.duplicate();
                        part.limit(part.position() + (int) Math.min(part.remaining(), left)); // a short write
                        int n = super.write(part, position);
                        src.position(src.position() + n);
                        fileWriteBudget.addAndGet(-n);
                        return n;
                    }

                    @Override
                    public FileChannel truncate(long size) throws IOException {
                        if (fileCutsFail && size < size()) {
                            throw new IOException("Input/output error");
                        }
                        return super.truncate(size);
                    }
                };
            }
            return new DelegatingChannel(ch) {
                @Override
                public void force(boolean metaData) throws IOException {
                    if (folderSyncFails.test(p)) {
                        throw new IOException(folderSyncError);
                    }
                    super.force(metaData);
                }
            };
        }

        @Override
        public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter) throws IOException {
            listed.add(dir.toString());
            DirectoryStream<Path> ds = d.newDirectoryStream(record("list", dir), x -> filter.accept(wrap(x)));
            return new DirectoryStream<>() {
                @Override public java.util.Iterator<Path> iterator() {
                    java.util.Iterator<Path> it = ds.iterator();
                    return new java.util.Iterator<>() {
                        @Override public boolean hasNext() { return it.hasNext(); }
                        @Override public Path next() { return wrap(it.next()); }
                    };
                }
                @Override public void close() throws IOException { ds.close(); }
            };
        }

        @Override public void createDirectory(Path dir, FileAttribute<?>... a) throws IOException { d.createDirectory(record("mkdir", dir), a); }
        @Override public void delete(Path p) throws IOException {
            if (deleteFails.test(p)) {
                throw new java.nio.file.AccessDeniedException(p.toString(), null, "Operation not permitted");
            }
            deleted.add(p.toString());
            d.delete(record("delete", p));
        }
        @Override public void copy(Path s, Path t, CopyOption... o) throws IOException { d.copy(record("copy", s), record("copy-to", t), o); }
        @Override public void move(Path s, Path t, CopyOption... o) throws IOException {
            d.move(record("move", s), record("move-to", t), o);
            moves.incrementAndGet();
        }
        @Override public boolean isSameFile(Path a, Path b) throws IOException { return d.isSameFile(record("same", a), record("same", b)); }
        @Override public boolean isHidden(Path p) throws IOException { return d.isHidden(record("hidden", p)); }
        @Override public FileStore getFileStore(Path p) throws IOException { return d.getFileStore(record("store", p)); }
        @Override public void checkAccess(Path p, AccessMode... m) throws IOException {
            statted.add(p.toString());
            d.checkAccess(record("access", p), m);
        }
        @Override public <V extends FileAttributeView> V getFileAttributeView(Path p, Class<V> t, LinkOption... o) { return d.getFileAttributeView(record("view", p), t, o); }
        @Override public <A extends BasicFileAttributes> A readAttributes(Path p, Class<A> t, LinkOption... o) throws IOException {
            statted.add(p.toString());
            return d.readAttributes(record("stat", p), t, o);
        }
        @Override public Map<String, Object> readAttributes(Path p, String a, LinkOption... o) throws IOException {
            statted.add(p.toString());
            return d.readAttributes(record("stat", p), a, o);
        }
        @Override public void setAttribute(Path p, String a, Object v, LinkOption... o) throws IOException { d.setAttribute(record("set", p), a, v, o); }
        @Override public void createSymbolicLink(Path l, Path t, FileAttribute<?>... a) throws IOException { d.createSymbolicLink(record("symlink", l), unwrap(t), a); }
        @Override public Path readSymbolicLink(Path l) throws IOException { return wrap(d.readSymbolicLink(record("readlink", l))); }
    }
}
