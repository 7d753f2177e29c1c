package dev.coffer.core.vault;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
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

/**
 * The default file system with every provider call (open, list, stat, access check, create, delete,
 * move, ...) recorded as "operation path", from any thread: for tests that prove some code does not
 * touch a vault's files at all. Paths are proxies of the default file system's paths.
 */
final class AccessRecordingFileSystem extends FileSystem {
    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    private final FileSystem base = FileSystems.getDefault();
    private final Provider provider = new Provider();

    /** A copy of the calls so far. */
    List<String> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    Path wrap(Path p) {
        if (p == null || Proxy.isProxyClass(p.getClass())) {
            return p;
        }
        InvocationHandler forward = (proxy, method, args) -> {
            if (method.getName().equals("getFileSystem")) {
                return this;
            }
            Object[] unwrapped = args == null ? null : args.clone();
            for (int i = 0; unwrapped != null && i < unwrapped.length; i++) {
                if (unwrapped[i] instanceof Path arg) {
                    unwrapped[i] = unwrap(arg);
                }
            }
            try {
                Object result = method.invoke(p, unwrapped);
                return result instanceof Path r ? wrap(r) : result;
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (Path) Proxy.newProxyInstance(Path.class.getClassLoader(), new Class<?>[] {Path.class}, forward);
    }

    private Path unwrap(Path p) {
        return Proxy.isProxyClass(p.getClass()) ? Path.of(p.toString()) : p;
    }

    private Path record(String operation, Path p) {
        calls.add(operation + " " + p);
        return unwrap(p);
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

    private final class Provider extends FileSystemProvider {
        private final FileSystemProvider d = base.provider();

        @Override public String getScheme() { return "access-recording"; }
        @Override public FileSystem newFileSystem(URI uri, Map<String, ?> env) { throw new UnsupportedOperationException(); }
        @Override public FileSystem getFileSystem(URI uri) { return AccessRecordingFileSystem.this; }
        @Override public Path getPath(URI uri) { return wrap(d.getPath(uri)); }

        @Override
        public SeekableByteChannel newByteChannel(Path p, Set<? extends OpenOption> o, FileAttribute<?>... a) throws IOException {
            return d.newByteChannel(record("open", p), o, a);
        }

        @Override
        public FileChannel newFileChannel(Path p, Set<? extends OpenOption> o, FileAttribute<?>... a) throws IOException {
            return d.newFileChannel(record("open", p), o, a);
        }

        @Override
        public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter) throws IOException {
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
        @Override public void delete(Path p) throws IOException { d.delete(record("delete", p)); }
        @Override public void copy(Path s, Path t, CopyOption... o) throws IOException { d.copy(record("copy", s), record("copy-to", t), o); }
        @Override public void move(Path s, Path t, CopyOption... o) throws IOException { d.move(record("move", s), record("move-to", t), o); }
        @Override public boolean isSameFile(Path a, Path b) throws IOException { return d.isSameFile(record("same", a), record("same", b)); }
        @Override public boolean isHidden(Path p) throws IOException { return d.isHidden(record("hidden", p)); }
        @Override public FileStore getFileStore(Path p) throws IOException { return d.getFileStore(record("store", p)); }
        @Override public void checkAccess(Path p, AccessMode... m) throws IOException { d.checkAccess(record("access", p), m); }
        @Override public <V extends FileAttributeView> V getFileAttributeView(Path p, Class<V> t, LinkOption... o) { return d.getFileAttributeView(record("view", p), t, o); }
        @Override public <A extends BasicFileAttributes> A readAttributes(Path p, Class<A> t, LinkOption... o) throws IOException {
            return d.readAttributes(record("stat", p), t, o);
        }
        @Override public Map<String, Object> readAttributes(Path p, String a, LinkOption... o) throws IOException { return d.readAttributes(record("stat", p), a, o); }
        @Override public void setAttribute(Path p, String a, Object v, LinkOption... o) throws IOException { d.setAttribute(record("set", p), a, v, o); }
        @Override public void createSymbolicLink(Path l, Path t, FileAttribute<?>... a) throws IOException { d.createSymbolicLink(record("symlink", l), unwrap(t), a); }
        @Override public Path readSymbolicLink(Path l) throws IOException { return wrap(d.readSymbolicLink(record("readlink", l))); }
    }
}
