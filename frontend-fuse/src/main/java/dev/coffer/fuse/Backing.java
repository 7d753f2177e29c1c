package dev.coffer.fuse;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tree a mount serves: any {@link Path} (the vault's root, a plain folder, a Jimfs folder) and
 * the facts about it that every operation needs. Turns the kernel's absolute paths ({@code /},
 * {@code /a/b}) into paths under the root. Immutable.
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
    private static final String HIDDEN_PREFIX = ".fuse_hidden";

    private final Path root;
    /** True if the root is a file system's {@code /} (a vault's root): kernel paths then parse as they are. */
    private final boolean rootIsFileSystemRoot;
    private final boolean posix;
    private final long uid;
    private final long gid;
    private volatile boolean unlinkedFolderReady;
    /**
     * Kept names whose file went back to its own name (kept name to kernel path): libfuse had moved an
     * open file out of the way of a rename over it, the rename failed, and libfuse still calls the file
     * by the kept name, also after its last close, for as long as the kernel remembers the name's old
     * node (the entry timeout). Kept for the session: one entry per such failed rename, and libfuse
     * never makes the same kept name twice.
     */
    private final Map<String, String> restored = new ConcurrentHashMap<>();

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
     * the reserved folder, which is not part of the served tree.
     */
    Path resolve(String fusePath) throws AccessDeniedException {
        if (fusePath.isEmpty() || fusePath.equals("/")) {
            return root;
        }
        String relative = fusePath.startsWith("/") ? fusePath.substring(1) : fusePath;
        if (relative.equals(UNLINKED) || relative.startsWith(UNLINKED + "/")) {
            throw new AccessDeniedException(fusePath, null, "reserved for files unlinked while open");
        }
        String name = relative.substring(relative.lastIndexOf('/') + 1);
        if (name.startsWith(HIDDEN_PREFIX)) {
            String back = restored.get(name);
            return back != null ? resolve(back) : root.resolve(UNLINKED).resolve(name);
        }
        // One parse per request instead of a parse and a resolve (a path per kernel request adds up in rm -rf).
        return rootIsFileSystemRoot && fusePath.startsWith("/") ? root.getFileSystem().getPath(fusePath) : root.resolve(relative);
    }

    /**
     * As {@link #resolve}, for a new entry a program creates: EPERM for a kept name. libfuse only ever
     * renames to kept names, so a program creating one (a copy of another FUSE file system's leftovers)
     * would otherwise put its file in the reserved folder, out of sight and deleted at the next mount.
     */
    Path resolveNew(String fusePath) throws IOException {
        if (isHidden(fusePath)) {
            throw new java.nio.file.FileSystemException(fusePath, null, "Operation not permitted");
        }
        return resolve(fusePath);
    }

    /** True for the kernel's path of a file that libfuse keeps because it was unlinked while open. */
    static boolean isHidden(String fusePath) {
        return fusePath.substring(fusePath.lastIndexOf('/') + 1).startsWith(HIDDEN_PREFIX);
    }

    /** The file libfuse keeps under {@code keptPath} is back at {@code fusePath}: serve the kept name from there. */
    void restored(String keptPath, String fusePath) {
        restored.put(lastName(keptPath), fusePath);
    }

    /**
     * True if {@code keptPath}'s file went back under its own name: libfuse's delete of the kept name at
     * the last close must not touch it.
     */
    boolean isRestored(String keptPath) {
        return restored.containsKey(lastName(keptPath));
    }

    private static String lastName(String fusePath) {
        return fusePath.substring(fusePath.lastIndexOf('/') + 1);
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

    /** Deletes what earlier sessions left in the reserved folder (files that were unlinked), and the folder. */
    void clearUnlinked() throws IOException {
        Path dir = root.resolve(UNLINKED);
        unlinkedFolderReady = false;
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                Files.deleteIfExists(p);
            }
        }
        Files.deleteIfExists(dir);
    }

    boolean isRoot(Path p) {
        return p.equals(root);
    }

    /** The entry's own attributes (never following a final symlink: the kernel resolves links itself). */
    BasicFileAttributes attributes(Path p) throws IOException {
        // The root is served as a folder even if it is reached through a symlink.
        LinkOption[] options = isRoot(p) ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        return posix ? Files.readAttributes(p, PosixFileAttributes.class, options)
                : Files.readAttributes(p, BasicFileAttributes.class, options);
    }
}
