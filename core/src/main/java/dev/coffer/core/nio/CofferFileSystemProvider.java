package dev.coffer.core.nio;

import dev.coffer.core.crypto.MasterKey;
import dev.coffer.core.names.EntryType;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.LinkOption;
import java.nio.file.NotLinkException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileOwnerAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.spi.FileSystemProvider;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code coffer} file-system provider: routes every {@code java.nio.file} call to the vault's
 * parts after checking that the file system is open (and writable for changes). Vaults are opened
 * through {@link CofferFileSystems}, which unlocks them; one open file system per vault folder.
 */
public final class CofferFileSystemProvider extends FileSystemProvider {
    public static final String SCHEME = "coffer";
    private static final CofferFileSystemProvider INSTANCE = new CofferFileSystemProvider();

    private final Map<Path, CofferFileSystem> open = new ConcurrentHashMap<>();

    /** Public for the service loader; use {@link #instance()}. */
    public CofferFileSystemProvider() {}

    public static CofferFileSystemProvider instance() {
        return INSTANCE;
    }

    /** Opens a file system on an already unlocked vault; takes ownership of {@code masterKey}. */
    CofferFileSystem open(Path vaultDir, MasterKey masterKey, VaultInfo info, StoreLimits limits, boolean readOnly) throws IOException {
        Path key = vaultDir.toAbsolutePath().normalize();
        CofferFileSystem fs = new CofferFileSystem(this, key, masterKey, info, limits, readOnly);
        if (open.putIfAbsent(key, fs) != null) {
            fs.close();
            throw new FileSystemAlreadyExistsException(key.toString());
        }
        return fs;
    }

    void closed(CofferFileSystem fs) {
        open.remove(fs.vaultDir(), fs);
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
        return newFileSystem(vaultDirOf(uri), env);
    }

    /** {@code env}: {@code "passphrase"} (char[]), optional {@code "readOnly"} (Boolean). The passphrase array is wiped. */
    @Override
    public FileSystem newFileSystem(Path vaultDir, Map<String, ?> env) throws IOException {
        Object pass = env.get("passphrase");
        if (!(pass instanceof char[] passphrase)) {
            throw new IllegalArgumentException("env must hold \"passphrase\" as a char[]");
        }
        boolean readOnly = Boolean.TRUE.equals(env.get("readOnly"));
        return CofferFileSystems.open(vaultDir, passphrase, readOnly);
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
        CofferFileSystem fs = open.get(vaultDirOf(uri).toAbsolutePath().normalize());
        if (fs == null) {
            throw new FileSystemNotFoundException(uri.toString());
        }
        return fs;
    }

    @Override
    public Path getPath(URI uri) {
        String ssp = uri.getSchemeSpecificPart();
        int bang = ssp.indexOf('!');
        CofferFileSystem fs = (CofferFileSystem) getFileSystem(uri);
        return fs.getPath(bang < 0 ? "/" : ssp.substring(bang + 1));
    }

    private static Path vaultDirOf(URI uri) {
        if (!SCHEME.equals(uri.getScheme())) {
            throw new IllegalArgumentException("not a coffer URI: " + uri);
        }
        String ssp = uri.getSchemeSpecificPart();
        int bang = ssp.indexOf('!');
        return Path.of(bang < 0 ? ssp : ssp.substring(0, bang));
    }

    static CofferPath cast(Path p) {
        if (!(p instanceof CofferPath cp)) {
            throw new ProviderMismatchException();
        }
        return cp;
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        return newFileChannel(path, options, attrs);
    }

    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        CofferPath p = cast(path);
        CofferFileSystem fs = p.getFileSystem();
        fs.checkOpen();
        try {
            return fs.opener.open(p, options, attrs);
        } catch (IOException | RuntimeException e) {
            fs.failIfClosed(e); // the file system closed under the open
            throw e;
        }
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter) throws IOException {
        CofferPath p = cast(dir);
        CofferFileSystem fs = p.getFileSystem();
        fs.checkOpen();
        try {
            return CofferDirectoryStream.open(p, true, filter); // lists when the iteration starts
        } catch (IOException | RuntimeException e) {
            fs.failIfClosed(e); // the file system closed under the listing
            throw e;
        }
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        CofferPath p = cast(dir);
        CofferFileSystem fs = p.getFileSystem();
        fs.checkWritable();
        FileAttribute<?>[] storageAttrs = fs.creation.forCiphertext(attrs); // refused before anything is made
        fs.structurally(() -> {
            fs.writer.createDirectory(fs.resolver.locate(p), storageAttrs);
            return null;
        });
    }

    @Override
    public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) throws IOException {
        CofferPath p = cast(link);
        CofferFileSystem fs = p.getFileSystem();
        fs.checkWritable();
        String t = target.toString();
        fs.structurally(() -> {
            fs.writer.createSymbolicLink(fs.resolver.locate(p), t);
            return null;
        });
    }

    @Override
    public Path readSymbolicLink(Path link) throws IOException {
        CofferPath p = cast(link);
        CofferFileSystem fs = p.getFileSystem();
        fs.checkOpen();
        try {
            Located l = fs.resolver.existing(p, false);
            if (l.isRoot() || l.entry().type() != EntryType.SYMLINK) {
                throw new NotLinkException(p.toString());
            }
            return fs.getPath(fs.symlinks.read(l.entry(), l.display()));
        } catch (IOException | RuntimeException e) {
            fs.failIfClosed(e); // the file system closed under the lookup
            throw e;
        }
    }

    @Override
    public void delete(Path path) throws IOException {
        CofferPath p = cast(path);
        CofferFileSystem fs = p.getFileSystem();
        fs.checkWritable();
        fs.structurally(() -> {
            fs.writer.delete(fs.resolver.locate(p));
            return null;
        });
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        CofferPath s = cast(source);
        CofferPath t = cast(target);
        CofferFileSystem fs = s.getFileSystem();
        fs.checkWritable();
        new Copier(fs).copy(s, t, options);
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        CofferPath s = cast(source);
        CofferPath t = cast(target);
        CofferFileSystem fs = s.getFileSystem();
        if (t.getFileSystem() != fs) {
            throw new ProviderMismatchException();
        }
        fs.checkWritable();
        fs.structurally(() -> {
            Located from = fs.resolver.existing(s, false); // the source is checked first, like the default provider
            fs.mover.move(from, fs.resolver.locate(t), options);
            return null;
        });
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        CofferPath a = cast(path);
        if (!(path2 instanceof CofferPath b) || b.getFileSystem() != a.getFileSystem()) {
            return false;
        }
        if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) {
            return true;
        }
        Object ka = readAttributes(a, BasicFileAttributes.class).fileKey();
        Object kb = readAttributes(b, BasicFileAttributes.class).fileKey();
        return ka != null && ka.equals(kb);
    }

    @Override
    public boolean isHidden(Path path) {
        CofferPath p = cast(path);
        CofferPath name = p.getFileName();
        return name != null && name.toString().startsWith(".");
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        CofferPath p = cast(path);
        p.getFileSystem().checkOpen();
        return p.getFileSystem().store();
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        CofferPath p = cast(path);
        CofferFileSystem fs = p.getFileSystem();
        fs.checkOpen();
        Located l;
        try {
            l = fs.resolver.existing(p, true);
        } catch (IOException | RuntimeException e) {
            fs.failIfClosed(e); // the file system closed under the lookup
            throw e;
        }
        boolean write = Arrays.asList(modes).contains(AccessMode.WRITE);
        if (write && fs.isReadOnly()) {
            throw new java.nio.file.AccessDeniedException(p.toString(), null, "read-only vault");
        }
        try {
            fs.attributes.attributeCarrier(l).getFileSystem().provider().checkAccess(fs.attributes.attributeCarrier(l), modes);
        } catch (java.nio.file.AccessDeniedException e) {
            throw new java.nio.file.AccessDeniedException(p.toString());
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        CofferPath p = cast(path);
        CofferFileSystem fs = p.getFileSystem();
        boolean follow = !Arrays.asList(options).contains(LinkOption.NOFOLLOW_LINKS);
        CofferAttributeView view = new CofferAttributeView(fs, p, follow, "posix");
        if (type == BasicFileAttributeView.class) {
            return (V) view.asBasic();
        }
        if ((type == PosixFileAttributeView.class || type == FileOwnerAttributeView.class) && fs.store().supportsFileAttributeView(type)) {
            return (V) view;
        }
        return null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options) throws IOException {
        CofferPath p = cast(path);
        CofferFileSystem fs = p.getFileSystem();
        fs.checkOpen();
        if (type != BasicFileAttributes.class && type != PosixFileAttributes.class) {
            throw new UnsupportedOperationException("attributes " + type.getName() + " not supported");
        }
        if (type == PosixFileAttributes.class && !fs.store().supportsFileAttributeView("posix")) {
            throw new UnsupportedOperationException("POSIX attributes not supported on this vault's store");
        }
        boolean follow = !Arrays.asList(options).contains(LinkOption.NOFOLLOW_LINKS);
        try {
            return (A) fs.attributes.read(fs.resolver.existingForStat(p, follow));
        } catch (IOException | RuntimeException e) {
            fs.failIfClosed(e); // the file system closed under the lookup
            throw e;
        }
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        CofferPath p = cast(path);
        String[] viewAndNames = AttributeMaps.split(attributes);
        CofferFileSystem fs = p.getFileSystem();
        if (AttributeMaps.typeOnly(viewAndNames[0], viewAndNames[1], fs.store().supportsFileAttributeView("posix"))) {
            return AttributeMaps.types(kindOf(p, options), viewAndNames[1]);
        }
        PosixFileAttributes a = (PosixFileAttributes) readAttributes(p, BasicFileAttributes.class, options);
        return AttributeMaps.read(a, viewAndNames[0], viewAndNames[1], p.getFileSystem().store().supportsFileAttributeView("posix"));
    }

    /**
     * What the entry at {@code p} is, from its lookup (no stat of its storage folder or payload),
     * answered as a full read would: the root's storage folder is statted, and a folder not cached
     * by path has its {@code dir.c9r} read (a damaged pointer throws).
     */
    private static CofferAttributes.Kind kindOf(CofferPath p, LinkOption... options) throws IOException {
        CofferFileSystem fs = p.getFileSystem();
        fs.checkOpen();
        boolean follow = !Arrays.asList(options).contains(LinkOption.NOFOLLOW_LINKS);
        try {
            Located l = fs.resolver.existingForStat(p, follow);
            if (l.isRoot()) {
                return fs.attributes.read(l).kind();
            }
            return switch (l.entry().type()) {
                case FILE -> CofferAttributes.Kind.FILE;
                case DIRECTORY -> {
                    if (fs.mapper.cachedDirectory(l.path().nfcNames()) == null) {
                        fs.mapper.open(l.entry(), l.display());
                    }
                    yield CofferAttributes.Kind.DIRECTORY;
                }
                case SYMLINK -> CofferAttributes.Kind.SYMLINK;
            };
        } catch (IOException | RuntimeException e) {
            fs.failIfClosed(e); // the file system closed under the lookup
            throw e;
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        CofferPath p = cast(path);
        boolean follow = !Arrays.asList(options).contains(LinkOption.NOFOLLOW_LINKS);
        CofferAttributeView view = new CofferAttributeView(p.getFileSystem(), p, follow, "posix");
        String[] vn = AttributeMaps.split(attribute);
        switch (vn[1]) {
            case "lastModifiedTime" -> view.setTimes(AttributeMaps.time(value), null, null);
            case "lastAccessTime" -> view.setTimes(null, AttributeMaps.time(value), null);
            case "creationTime" -> view.setTimes(null, null, AttributeMaps.time(value));
            case "permissions" -> view.setPermissions(new HashSet<>((Set<PosixFilePermission>) value));
            case "owner" -> view.setOwner((UserPrincipal) value);
            case "group" -> view.setGroup((java.nio.file.attribute.GroupPrincipal) value);
            default -> throw new IllegalArgumentException("attribute '" + attribute + "' cannot be set");
        }
    }
}
