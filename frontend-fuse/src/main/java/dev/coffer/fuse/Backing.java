package dev.coffer.fuse;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The tree a mount serves: any {@link Path} (the vault's root, a plain folder, a Jimfs folder) and
 * the facts about it that every operation needs. Turns the kernel's absolute paths ({@code /},
 * {@code /a/b}) into paths under the root. Thread-safe.
 *
 * <p>Files unlinked while open: libfuse keeps them by renaming them to {@code .fuse_hiddenNNNN} in
 * their folder until the last handle closes, so that fstat and I/O on them keep working. Any path
 * whose last name is such a name is served from one reserved folder under the root instead,
 * {@value #UNLINKED}, which listings and lookups never show: the folder the file was in stays
 * removable ({@code rm -rf} of a folder with an open file works) and shows no stray files. The
 * reserved folder is created on first use and deleted only when no request can run: before the
 * session starts and after it ends ({@link #clearUnlinked}), which also removes what a crash left.
 * (Deleting it while serving would race with libfuse's lookups of new hidden names, which a
 * vault can answer with EIO while one of its folders is half removed.)
 *
 * <p>Not responsible for any operation on the tree.
 */
final class Backing {
    /** The reserved folder under the root that holds files unlinked while open. */
    static final String UNLINKED = ".coffer-unlinked";
    /**
     * In the reserved folder, the name prefix of a file to keep, not delete: one that a failed rename over
     * it left with nowhere to go ({@link TreeOps}); rescued to the top folder when a mount starts or ends.
     */
    static final String KEEP_PREFIX = ".coffer-keep-";

    private final Path root;
    /** True if the root is a file system's {@code /} (a vault's root): kernel paths then parse as they are. */
    private final boolean rootIsFileSystemRoot;
    private final boolean posix;
    private final long uid;
    private final long gid;
    private volatile boolean unlinkedFolderReady;
    private final KeptNames kept = new KeptNames();
    private final ParsedPaths parsed = new ParsedPaths();

    /**
     * @param root the folder to serve
     * @param uid  the owner every entry is reported with (the mounting user)
     * @param gid  the group every entry is reported with
     */
    Backing(Path root, long uid, long gid) {
        this.root = root;
        this.rootIsFileSystemRoot = root.getParent() == null && root.toString().equals("/");
        this.posix = root.getFileSystem().supportedFileAttributeViews().contains("posix");
        this.uid = uid;
        this.gid = gid;
    }

    Path root() {
        return root;
    }

    FileSystem fileSystem() {
        return root.getFileSystem();
    }

    /** True if permissions can be read and stored (they then come from, and go to, the backing entry). */
    boolean posix() {
        return posix;
    }

    long uid() {
        return uid;
    }

    long gid() {
        return gid;
    }

    /**
     * The backing path of the kernel's path {@code fusePath} ({@code "/"} is the root); EACCES for
     * the reserved folder, which is not part of the served tree; EILSEQ for a path whose bytes did
     * not decode ({@link KernelNames}).
     */
    Path resolve(String fusePath) throws FileSystemException {
        KernelNames.requireDecoded(fusePath); // else two names that did not decode would be one file
        if (fusePath.isEmpty() || fusePath.equals("/")) {
            return root;
        }
        String relative = fusePath.startsWith("/") ? fusePath.substring(1) : fusePath;
        if (relative.equals(UNLINKED) || relative.startsWith(UNLINKED + "/")) {
            throw new AccessDeniedException(fusePath, null, "reserved for files unlinked while open");
        }
        String name = relative.substring(relative.lastIndexOf('/') + 1);
        if (name.startsWith(KeptNames.PREFIX)) {
            Path inReserved = root.resolve(UNLINKED).resolve(name);
            KeptNames.Restored back = kept.restoredOf(fusePath);
            // A file that went back under a name of its own is served from there, also after its last
            // close, while the kernel still knows the old node by this name (the entry timeout); a
            // different file under that name since is not it (the reserved path: ENOENT).
            if (back != null && back.where() != null) {
                // A place that is a kept name again (libfuse moved the file away once more) is in the
                // reserved folder under that name: not followed further, so no chain of records is.
                Path p = KeptNames.isKept(back.where()) ? reservedPath(KeptNames.lastName(back.where())) : resolve(back.where());
                return back.fileKey() == null || back.fileKey().equals(fileKeyOrNull(p)) ? p : inReserved;
            }
            if (back != null && back.keepName() != null) {
                return reservedPath(back.keepName()); // could go nowhere: marked to keep
            }
            return inReserved;
        }
        Path p = parsed.get(fusePath);
        if (p == null) {
            // One parse per request instead of a parse and a resolve (a path per kernel request adds up in rm -rf).
            p = rootIsFileSystemRoot && fusePath.startsWith("/") ? root.getFileSystem().getPath(fusePath) : root.resolve(relative);
            parsed.put(fusePath, p);
        }
        return p;
    }

    /**
     * As {@link #resolve}, for a new entry a program creates: EPERM for a kept name. libfuse only ever
     * renames to kept names, so a program creating one (a copy of another FUSE file system's leftovers)
     * would otherwise put its file in the reserved folder, out of sight and deleted at the next mount.
     */
    Path resolveNew(String fusePath) throws IOException {
        if (KeptNames.isKept(fusePath)) {
            throw new java.nio.file.FileSystemException(fusePath, null, "Operation not permitted");
        }
        return resolve(fusePath);
    }

    /** libfuse's kept names of this mount. */
    KeptNames kept() {
        return kept;
    }

    /** The file key of the entry at {@code p}, or null if there is none (or it cannot be read). */
    Object fileKeyOrNull(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    /** True for the reserved folder's entry in the root listing. */
    boolean isReserved(Path entry) {
        return root.equals(entry.getParent()) && entry.getFileName().toString().equals(UNLINKED);
    }

    /** Makes sure the reserved folder exists (before libfuse moves a file there); callers serialise. */
    void ensureUnlinkedFolder() throws IOException {
        if (!unlinkedFolderReady) {
            Files.createDirectories(root.resolve(UNLINKED));
            unlinkedFolderReady = true;
        }
    }

    /**
     * False until the reserved folder has been created in this session: a kept name cannot exist
     * before (libfuse asks, to find a free one, and must get ENOENT without a lookup racing the creation).
     */
    boolean unlinkedFolderReady() {
        return unlinkedFolderReady;
    }

    /** In the reserved folder: the file kept under {@code name} (a kept name, or one marked to keep). */
    Path reservedPath(String name) {
        return root.resolve(UNLINKED).resolve(name);
    }

    /**
     * Names in the reserved folder of files to rescue rather than delete: marked to keep (by this session
     * or an earlier one), or this session's that could go nowhere and not even be marked.
     */
    List<String> keptToRescue() throws IOException {
        List<String> names = new ArrayList<>();
        Path dir = root.resolve(UNLINKED);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return names;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                if (name.startsWith(KEEP_PREFIX) || isUnplaced(name)) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    private boolean isUnplaced(String name) {
        KeptNames.Restored r = kept.restoredOf("/" + name);
        return r != null && r.where() == null;
    }

    /**
     * Deletes what earlier sessions left in the reserved folder (files that were unlinked), and the folder,
     * except files to rescue ({@link #keptToRescue}) that could still not be rescued.
     */
    void clearUnlinked() throws IOException {
        Path dir = root.resolve(UNLINKED);
        unlinkedFolderReady = false;
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        boolean keeps = false;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                if (name.startsWith(KEEP_PREFIX) || isUnplaced(name)) {
                    keeps = true;
                } else {
                    Files.deleteIfExists(p);
                }
            }
        }
        if (!keeps) {
            Files.deleteIfExists(dir);
        }
    }

    boolean isRoot(Path p) {
        return p.equals(root);
    }

    /**
     * Whether the entry itself is a folder (a final symlink is not followed), asked as the one
     * attribute {@code basic:isDirectory}: any store answers it, and a vault answers it from the
     * entry's lookup alone, without the stats of a full attribute read.
     */
    boolean isDirectory(Path p) throws IOException {
        LinkOption[] options = isRoot(p) ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        return Boolean.TRUE.equals(Files.getAttribute(p, "basic:isDirectory", options));
    }

    /** The entry's own attributes (never following a final symlink: the kernel resolves links itself). */
    BasicFileAttributes attributes(Path p) throws IOException {
        // The root is served as a folder even if it is reached through a symlink.
        LinkOption[] options = isRoot(p) ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        return posix ? Files.readAttributes(p, PosixFileAttributes.class, options)
                : Files.readAttributes(p, BasicFileAttributes.class, options);
    }
}
