package dev.coffer.fuse;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;

/**
 * The tree a mount serves: any {@link Path} (the vault's root, a plain folder, a Jimfs folder) and
 * the facts about it that every operation needs. Turns the kernel's absolute paths ({@code /},
 * {@code /a/b}) into paths under the root. Immutable.
 *
 * <p>Not responsible for any operation on the tree.
 */
final class Backing {
    private final Path root;
    private final boolean posix;
    private final long uid;
    private final long gid;

    /**
     * @param root the folder to serve
     * @param uid  the owner every entry is reported with (the mounting user)
     * @param gid  the group every entry is reported with
     */
    Backing(Path root, long uid, long gid) {
        this.root = root;
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

    /** The backing path of the kernel's path {@code fusePath} ({@code "/"} is the root). */
    Path resolve(String fusePath) {
        if (fusePath.isEmpty() || fusePath.equals("/")) {
            return root;
        }
        return root.resolve(fusePath.startsWith("/") ? fusePath.substring(1) : fusePath);
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
