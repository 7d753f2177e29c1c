package dev.coffer.webdav;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * The served tree: the root {@link Path}, its dead properties and its URL space, plus the file
 * operations every method shares. Resolution never follows a symbolic link (a link in a plain folder
 * could point outside the root): a path whose ancestors are not all real folders, or which is itself
 * a link, is treated as absent.
 *
 * <p>Not responsible for HTTP (the servlet and Milton are) or for locks ({@link LockManager}).
 */
final class DavTree {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DavTree.class);
    private static final int COPY_BUFFER = 256 * 1024;
    private final Path root;
    private final DeadProperties props;
    private final DavUrls urls;
    private final Staging staging;
    private final SetAside asides;
    /**
     * Held while a write checks locks for the last time and puts its result in place (PUT, MKCOL,
     * COPY, MOVE, DELETE, PROPPATCH) and while a LOCK is granted: so a lock is never granted between
     * a write's last check and its change, where the write would override it, and a PROPPATCH never
     * writes properties for a resource a MOVE or DELETE took away after its check.
     */
    private final Object commitLock = new Object();

    DavTree(Path root, DavUrls urls) {
        this.root = root;
        this.props = new DeadProperties(root);
        this.urls = urls;
        this.staging = new Staging(root, this::restoreAside);
        this.asides = new SetAside(this, staging);
    }

    Path root() {
        return root;
    }

    DeadProperties props() {
        return props;
    }

    DavUrls urls() {
        return urls;
    }

    Staging staging() {
        return staging;
    }

    Object commitLock() {
        return commitLock;
    }

    /** The attributes of the file or folder at {@code p}, or empty if absent, a link, or below a link. */
    Optional<BasicFileAttributes> attributes(DavPath p) {
        Path cur = root;
        try {
            BasicFileAttributes a = Files.readAttributes(cur, BasicFileAttributes.class);
            for (String s : p.segments()) {
                if (!a.isDirectory()) {
                    return Optional.empty();
                }
                cur = cur.resolve(s);
                a = Files.readAttributes(cur, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            }
            return a.isDirectory() || a.isRegularFile() ? Optional.of(a) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    boolean isFolder(DavPath p) {
        return attributes(p).map(BasicFileAttributes::isDirectory).orElse(false);
    }

    Path file(DavPath p) {
        return p.resolveIn(root);
    }

    /**
     * Deletes a file, or takes a folder out of the tree with one rename into the staging folder, and
     * the resource's dead properties; returns the folder's staged path, for {@link #finishDelete}
     * (null for a file). A folder deleted in place and failing half-way was left half-deleted, for
     * every client to see; staged, a failure leaves nothing visible (the next start finishes it).
     */
    Path delete(DavPath p) throws IOException {
        Path target = file(p);
        Path staged = null;
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            staged = staging.begin("delete");
            try {
                Files.move(target, staged);
            } catch (IOException | RuntimeException e) {
                try {
                    staging.end(staged); // a vault's move may have renamed before it failed: what it moved was to go anyway
                } catch (IOException | RuntimeException x) {
                    e.addSuppressed(x);
                }
                throw e;
            }
        } else {
            Files.delete(target);
        }
        try {
            props.deleted(p);
        } catch (IOException | RuntimeException e) {
            finishDelete(staged); // the folder is out of the tree: its staged entry is ended, not left counted
            throw e;
        }
        return staged;
    }

    /** Deletes what {@link #delete} staged (null: nothing); what cannot be deleted stays there, out of sight, until the next start. */
    void finishDelete(Path staged) {
        if (staged == null) {
            return;
        }
        try {
            staging.end(staged);
        } catch (IOException | RuntimeException e) {
            LOG.debug("a deleted folder was not removed entirely (the next start does): {}", e.getClass().getName());
        }
    }

    /**
     * Moves the resource at {@code p} aside, into the staging folder ({@link SetAside}), so that an
     * overwriting MOVE or COPY can put something in its place and still give it back if that fails;
     * its dead properties go with it, so the name is then {@link Target#FREE}. Returns where it went.
     */
    Path setAside(DavPath p) throws IOException {
        return asides.setAside(p);
    }

    private void restoreAside(Path entry) throws IOException {
        asides.restore(entry);
    }

    /**
     * The members of the folder {@code folder} ({@link FolderMembers}). What a version before
     * session 34 set aside there and a killed server left (hidden, nothing else looks for it: a
     * whole-tree search at each start is too slow for a big vault) is given back first, made
     * visible as {@code set aside (recovered by Coffer)} ({@link SetAside#giveBackLegacy}); what
     * cannot be given back (a read-only vault) stays hidden and is tried again at the next listing.
     */
    FolderMembers members(DavPath folder) throws IOException {
        FolderMembers m = FolderMembers.of(file(folder));
        if (m.legacyAsides().isEmpty()) {
            return m;
        }
        boolean moved = false;
        for (Path entry : m.legacyAsides()) {
            moved |= asides.giveBackLegacy(entry, folder);
        }
        // Listed again only if something was given back: the folder may have been moved or deleted meanwhile.
        return moved ? FolderMembers.of(file(folder)) : m;
    }

    /** At start: gives back what an older version left set aside in the root (other folders: when listed, {@link #members}). */
    void giveBackLegacyAsidesInRoot() {
        try {
            members(DavPath.ROOT);
        } catch (IOException | RuntimeException e) {
            LOG.debug("the root was not listed at start (it is at its first PROPFIND): {}", e.getClass().getName());
        }
    }

    /** Puts back what {@link #setAside} moved away from {@code p} (nothing else may be there). */
    void putBack(Path aside, DavPath p) throws IOException {
        asides.putBack(aside, p);
    }

    /** Deletes what {@link #setAside} moved away (its replacement is in place). */
    void discard(Path aside) {
        asides.discard(aside);
    }

    /** Deletes a file, or a folder with everything in it, not following links; nothing there is fine. */
    static void deleteTree(Path target) throws IOException {
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            Files.walkFileTree(target, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
                    Files.delete(f);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } else {
            Files.delete(target);
        }
    }

    /**
     * Copies a file, or a folder (with its content when {@code deep}), to {@code staged}, a path in
     * the {@link Staging} folder: nobody sees the copy until {@link #putCopyInPlace} renames it in.
     */
    void copyToStaging(DavPath from, Path staged, boolean deep) throws IOException {
        Path src = file(from);
        if (Files.isDirectory(src, LinkOption.NOFOLLOW_LINKS)) {
            if (!deep) {
                Files.createDirectory(staged);
            } else {
                Files.walkFileTree(src, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                        if (!d.equals(src) && !isCopiedWithItsFolder(d)) {
                            return FileVisitResult.SKIP_SUBTREE;
                        }
                        Files.createDirectory(staged.resolve(src.relativize(d).toString()));
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
                        if (attrs.isRegularFile() && isCopiedWithItsFolder(f)) {
                            copyFile(f, staged.resolve(src.relativize(f).toString()));
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
            }
        } else {
            copyFile(src, staged);
        }
    }

    /** Copies one file's content to a new file and forces it to disk (it is renamed into place next). */
    private static void copyFile(Path from, Path to) throws IOException {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
                FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.allocate(COPY_BUFFER);
            while (in.read(buf) >= 0) {
                buf.flip();
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
                buf.clear();
            }
            out.force(true);
        }
    }

    /** What a MOVE's or COPY's target name holds when the new resource is put there. */
    enum Target {
        /**
         * Nothing (never was, or {@link #setAside} with its sidecar): a sidecar there is stale (a
         * killed server's), the new resource's properties replace it before it takes the name.
         */
        FREE,
        /** A file, replaced by the one rename (the new resource is a file too). */
        FILE
    }

    /**
     * Renames a copy made by {@link #copyToStaging} to {@code to} and gives it the dead properties of
     * {@code from}. At a {@link Target#FREE} name the properties are written first (see {@link #move}),
     * so if they fail nothing of the copy is there. A {@link Target#FILE} is replaced by the one
     * rename and gets them after it: a replaced file is gone already, so the copy stays there if they fail.
     * The sidecar's bytes are copied unparsed, as by a move, so a damaged one never blocks a copy; one
     * that cannot be read at all stays with the source, and the copy has none.
     */
    void putCopyInPlace(Path staged, DavPath from, DavPath to, Target target) throws IOException {
        if (target == Target.FREE) {
            copySidecar(from, to); // before the name is taken: see move
            renameToFree(staged, to);
            return;
        }
        Files.move(staged, file(to), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        copySidecar(from, to);
    }

    /** {@code to} gets the bytes of {@code from}'s sidecar, or none if it cannot be read (the source keeps it). */
    private void copySidecar(DavPath from, DavPath to) throws IOException {
        if (!props.copiedBytes(from, to)) {
            props.deleted(to); // never another resource's properties on the copy
            LOG.warn("a copy was made without its source's dead properties: their sidecar cannot be read (the source keeps it)");
        }
    }

    /**
     * Whether a deep copy takes {@code member} along: every member, and the dead-property sidecar of
     * one; not the server's other hidden files (an overwritten target set aside by a MOVE or COPY
     * under way, a sidecar's temp, an upload temp an earlier version left beside its target), which
     * would become hidden copies that nothing ever removes.
     */
    private static boolean isCopiedWithItsFolder(Path member) {
        String name = member.getFileName().toString();
        if (!DeadProperties.isSidecarName(name)) {
            return true;
        }
        String sidecarOf = DeadProperties.SIDECAR_PREFIX + ".";
        return name.startsWith(sidecarOf) && name.length() > sidecarOf.length()
                && Files.exists(member.resolveSibling(name.substring(sidecarOf.length())), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Moves a file or folder with its dead properties. To a {@link Target#FREE} name the properties
     * are written under the new name first, then the resource is renamed, then the old name's
     * sidecar goes: a server killed at any step leaves the properties with the resource, plus at
     * most a sidecar for a name without a resource, which {@link DeadProperties#clearStale} drops
     * before anything is made there (renamed first, a kill before the sidecar followed left the
     * moved resource without its properties and them on the old name, for its next resource). The
     * sidecar's bytes are copied unparsed, so a damaged one never blocks a move; one that cannot be
     * read at all (a ciphertext failing authentication) is renamed after the resource instead.
     */
    void move(DavPath from, DavPath to, Target target) throws IOException {
        if (target == Target.FREE) {
            if (!props.copiedBytes(from, to)) {
                moveWithUnreadableSidecar(from, to);
                return;
            }
            renameToFree(file(from), to);
            dropOldSidecar(from);
            return;
        }
        Files.move(file(from), file(to), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        props.moved(from, to);
    }

    /**
     * The order before properties went first: the name's stale sidecar goes, the resource is
     * renamed, then its sidecar (moved as it is, never read). Killed between the renames, the
     * resource is without it; a failing sidecar rename leaves it on the old name, as a stale one.
     */
    private void moveWithUnreadableSidecar(DavPath from, DavPath to) throws IOException {
        props.clearStale(to);
        Files.move(file(from), file(to));
        try {
            props.moved(from, to);
        } catch (IOException | RuntimeException e) {
            LOG.debug("a moved resource's unreadable sidecar stays on its old name: {}", e.getClass().getName());
        }
    }

    private void dropOldSidecar(DavPath from) {
        try {
            props.deleted(from);
        } catch (IOException | RuntimeException e) {
            // The move is done; a sidecar left on the old name is stale and dropped before a resource is made there.
            LOG.debug("a moved resource's old sidecar stays: {}", e.getClass().getName());
        }
    }

    /**
     * Renames {@code src} to the free name {@code to}, whose sidecar was just written. If the rename
     * fails and nothing took the name, that sidecar goes again; a vault's move can fail after its
     * rename was made (its folder fsync failed), and then the resource there keeps it.
     */
    private void renameToFree(Path src, DavPath to) throws IOException {
        try {
            Files.move(src, file(to));
        } catch (IOException | RuntimeException e) {
            try {
                if (!Files.exists(file(to), LinkOption.NOFOLLOW_LINKS)) {
                    props.clearStale(to);
                }
            } catch (IOException | RuntimeException x) {
                e.addSuppressed(x);
            }
            throw e;
        }
    }
}
