package dev.coffer.core.nio;

import dev.coffer.core.content.ContentKeys;
import dev.coffer.core.content.FileHeaders;
import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.crypto.Bytes;
import dev.coffer.core.crypto.MasterKey;
import dev.coffer.core.names.ConflictResolver;
import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.names.NameCipher;
import dev.coffer.core.names.PathMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.security.SecureRandom;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An unlocked vault as a {@link FileSystem}: owns the vault's keys and everything open on it.
 * Closing it closes every channel, destroys the keys, and makes later calls throw
 * {@link ClosedFileSystemException}. The operations themselves live in the parts it wires together.
 */
public final class CofferFileSystem extends FileSystem {
    private final CofferFileSystemProvider provider;
    private final Path vaultDir;
    private final MasterKey masterKey;
    private final AesSiv siv;
    private final boolean readOnly;
    private final VaultInfo info;
    private final StoreLimits storeLimits;
    private final CofferPath root;
    private final CofferFileStore store;
    private final ReentrantLock structureLock = new ReentrantLock();
    private volatile boolean open = true;
    private final ConflictCopyListeners conflictCopies = new ConflictCopyListeners();

    final PathMapper mapper;
    final DirectoryLister lister;
    final OpenFiles openFiles;
    final ContentKeys contentKeys;
    final Resolver resolver;
    final TreeWriter writer;
    final Mover mover;
    final ChannelOpener opener;
    /** What a new file or folder may be created with (its permissions, where the store keeps them). */
    final CreationAttributes creation;
    final AttributeReader attributes;
    final SymlinkTargets symlinks;
    final ConflictResolver conflicts;

    /** Takes ownership of {@code masterKey}: it is destroyed when this file system closes. */
    CofferFileSystem(CofferFileSystemProvider provider, Path vaultDir, MasterKey masterKey, VaultInfo info, StoreLimits storeLimits,
                     boolean readOnly) throws IOException {
        this.provider = provider;
        this.vaultDir = vaultDir;
        this.masterKey = masterKey;
        this.info = info;
        this.storeLimits = storeLimits;
        this.readOnly = readOnly;
        byte[] sivKey = masterKey.derive("coffer/siv", AesSiv.KEY_LENGTH);
        try {
            this.siv = new AesSiv(sivKey);
        } finally {
            Bytes.wipe(sivKey);
        }
        NameCipher names = new NameCipher(siv);
        this.mapper = new PathMapper(vaultDir.resolve("d"), names, new LongNames(info.shorteningThreshold()));
        this.lister = new DirectoryLister(names);
        this.contentKeys = new ContentKeys(new FileHeaders(siv, new SecureRandom()), info.authenticated());
        this.openFiles = new OpenFiles(contentKeys, conflictCopies);
        this.symlinks = new SymlinkTargets(contentKeys);
        boolean posix = vaultDir.getFileSystem().supportedFileAttributeViews().contains("posix");
        this.resolver = new Resolver(mapper, symlinks, posix);
        this.writer = new TreeWriter(mapper, contentKeys, symlinks, openFiles);
        this.mover = new Mover(mapper, writer, openFiles);
        this.creation = new CreationAttributes(posix);
        this.opener = new ChannelOpener(resolver, mapper, writer, openFiles, readOnly, creation);
        this.attributes = new AttributeReader(mapper, contentKeys.layout(), openFiles, posix);
        this.conflicts = new ConflictResolver(mapper, lister, new CleartextComparison(contentKeys), readOnly);
        this.root = new CofferPath(this, true, List.of());
        this.store = new CofferFileStore(Files.getFileStore(vaultDir), readOnly, posix);
        if (!readOnly) {
            openFiles.rescueWith(new OrphanRescue(this)); // last: it uses the opener and the root
        }
    }

    /**
     * Tells {@code listener} about each conflict copy this file system makes of an open file that
     * another program (a sync client) replaced or deleted underneath, and about each one it could not
     * make (then what a program wrote there is lost): the person must learn where their writes went,
     * which the log, holding no names, cannot say. For the file system's owner (the app), which shows
     * it; not for the frontends.
     *
     * <p>Called on the thread that made the copy: the one that closed the file's last channel (a
     * FUSE or WebDAV worker), an open that found the file replaced, or the one closing this file
     * system (locking waits for it). A listener should return quickly (hand the event on) and not
     * use this file system. An exception it throws is logged by type and otherwise ignored.
     */
    public void onConflictCopies(java.util.function.Consumer<ConflictCopy> listener) {
        conflictCopies.add(listener);
    }

    /** Facts about the vault this file system serves. */
    public VaultInfo info() {
        return info;
    }

    /**
     * What the file system under the vault folder allows, probed at opening: read-only (then this
     * file system is read-only too), case-insensitive, or too short a name limit; with a warning
     * for the user about each.
     */
    public StoreLimits storeLimits() {
        return storeLimits;
    }

    public Path vaultDir() {
        return vaultDir;
    }

    @Override
    public CofferFileSystemProvider provider() {
        return provider;
    }

    @Override
    public void close() throws IOException {
        structureLock.lock();
        try {
            if (!open) {
                return;
            }
            open = false;
            try {
                openFiles.closeAll();
            } finally {
                contentKeys.destroy(); // after closeAll: the open files' cryptors are back in its pool
                siv.destroy();
                masterKey.destroy();
                mapper.clearCaches();
                mapper.names().clearCaches();
                provider.closed(this);
            }
        } finally {
            structureLock.unlock();
        }
    }

    /** True once the keys are gone (for tests proving that locking destroys them). */
    public boolean keysDestroyed() {
        return siv.isDestroyed() && masterKey.isDestroyed();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public boolean isReadOnly() {
        return readOnly;
    }

    @Override
    public String getSeparator() {
        return "/";
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        return List.of(root);
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        return List.of(store);
    }

    CofferFileStore store() {
        return store;
    }

    @Override
    public Set<String> supportedFileAttributeViews() {
        return store.supportsFileAttributeView("posix") ? Set.of("basic", "posix", "owner") : Set.of("basic");
    }

    @Override
    public CofferPath getPath(String first, String... more) {
        return CofferPath.parse(this, first, more);
    }

    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        PathMatcher m = FileSystems.getDefault().getPathMatcher(syntaxAndPattern);
        return p -> m.matches(Paths.get(p.toString()));
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        return vaultDir.getFileSystem().getUserPrincipalLookupService();
    }

    @Override
    public WatchService newWatchService() {
        throw new UnsupportedOperationException("watching a vault is not supported");
    }

    URI uriOf(String cleartextPath) {
        try {
            return new URI(CofferFileSystemProvider.SCHEME, null, vaultDir.toAbsolutePath() + "!" + cleartextPath, null);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    void checkOpen() {
        if (!open) {
            throw new ClosedFileSystemException();
        }
    }

    /**
     * After a call that ran without the structure lock failed: if this file system closed meanwhile,
     * throws ClosedFileSystemException (with {@code failure} as its cause) as any call after the close
     * does. Such a call may have met a key the close destroyed under it (the SIV key of the names,
     * the content keys: IllegalStateException) or a file it closed; either says only that the vault
     * was locked. Otherwise returns, and the caller throws {@code failure}. Free on the normal path.
     */
    void failIfClosed(Exception failure) {
        if (!open && !(failure instanceof ClosedFileSystemException)) {
            ClosedFileSystemException closed = new ClosedFileSystemException();
            closed.initCause(failure);
            throw closed;
        }
    }

    void checkWritable() {
        checkOpen();
        if (readOnly) {
            throw new java.nio.file.ReadOnlyFileSystemException();
        }
    }

    /** Runs a structural change (create, delete, move, conflict repair) alone. */
    <T> T structurally(IoSupplier<T> action) throws IOException {
        structureLock.lock();
        try {
            checkOpen();
            return action.get();
        } finally {
            structureLock.unlock();
        }
    }

    @FunctionalInterface
    interface IoSupplier<T> {
        T get() throws IOException;
    }
}
