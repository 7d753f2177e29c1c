package dev.coffer.webdav;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A resource an overwriting MOVE or COPY moves out of the way until its replacement is in place
 * (a folder, or a file overwritten by a folder): renamed into the {@link Staging} folder, beside a
 * small record of where it came from ({@code ENTRY.origin}, its path below the root). Set aside
 * beside its target instead, as before, it was found by nothing after a crash (a whole-tree search
 * at every start is too slow for a big vault); in the staging folder the start's sweep finds it and
 * gives it back ({@link #restore}): under its name if that is free, else beside it as
 * {@code NAME (recovered by Coffer)}. Never deleted unless its replacement is in place.
 *
 * <p>Not responsible for deciding what is set aside ({@link WriteMethods}).
 */
final class SetAside {
    static final String KIND = "aside";
    static final String RECORD_SUFFIX = ".origin";
    /** Beside an entry: its dead-property sidecar (empty: it had none), moved aside with it. */
    static final String PROPS_SUFFIX = ".props";
    private static final Logger LOG = LoggerFactory.getLogger(SetAside.class);

    private final DavTree tree;
    private final Staging staging;
    private final java.util.concurrent.atomic.AtomicBoolean legacyFailureLogged = new java.util.concurrent.atomic.AtomicBoolean();

    SetAside(DavTree tree, Staging staging) {
        this.tree = tree;
        this.staging = staging;
    }

    static boolean isEntryName(String name) {
        return name.startsWith(DeadProperties.RESERVED_PREFIX + KIND + "-") && !name.endsWith(RECORD_SUFFIX) && !name.endsWith(PROPS_SUFFIX);
    }

    static Path propsOf(Path entry) {
        return entry.resolveSibling(entry.getFileName() + PROPS_SUFFIX);
    }

    /**
     * An entry a version before session 34 set aside beside its target (a hidden {@code
     * .coffer-dav-aside-UUID} in the target's folder, without a record of its name) and a killed
     * server left there. Only that exact form: a file of the user's own made through FUSE (which
     * does not reserve the prefix) under another name with the prefix is left alone. Entries in the
     * staging folder are never listed as members.
     */
    static boolean isLegacyEntryName(String name) {
        String prefix = DeadProperties.RESERVED_PREFIX + KIND + "-";
        if (!name.startsWith(prefix)) {
            return false;
        }
        String rest = name.substring(prefix.length());
        try {
            return java.util.UUID.fromString(rest).toString().equals(rest);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    static Path recordOf(Path entry) {
        return entry.resolveSibling(entry.getFileName() + RECORD_SUFFIX);
    }

    /**
     * Moves {@code p} into the staging folder (one rename), its origin recorded first, then its
     * dead-property sidecar beside it (an empty file if it had none): the name is then free of both,
     * so its replacement is put there as at a free name and never shows the old properties. Killed
     * before the sidecar followed, the sidecar at the name is the entry's own (nothing can take the
     * name before); once it followed, whatever sidecar the name has is its replacement's.
     */
    Path setAside(DavPath p) throws IOException {
        Path entry = staging.begin(KIND);
        Path record = recordOf(entry);
        try {
            writeRecord(record, p);
            Files.move(tree.file(p), entry);
            Path sidecar = tree.props().sidecarOf(p);
            if (Files.exists(sidecar, LinkOption.NOFOLLOW_LINKS)) {
                Files.move(sidecar, propsOf(entry));
            } else {
                writeForced(propsOf(entry), new byte[0]);
            }
            return entry;
        } catch (IOException | RuntimeException e) {
            undo(entry, record, p, e);
            throw e;
        }
    }

    /** After a failed {@link #setAside}: ends its entry (put back, or removed if nothing moved), failures added to {@code e}. */
    private void undo(Path entry, Path record, DavPath p, Exception e) {
        boolean moved;
        try {
            moved = Files.exists(entry, LinkOption.NOFOLLOW_LINKS);
        } catch (RuntimeException x) { // the vault was locked meanwhile: whatever is there stays for the sweep
            e.addSuppressed(x);
            staging.release();
            return;
        }
        if (moved) {
            // A vault's move can fail after its rename (its folder fsync failed): the resource is
            // here, not nothing. Put back; if that fails too, it stays with its record for the sweep.
            try {
                putBack(entry, p);
            } catch (IOException | RuntimeException x) {
                e.addSuppressed(x);
            }
            return;
        }
        try {
            Files.deleteIfExists(record);
        } catch (IOException | RuntimeException x) {
            e.addSuppressed(x);
        }
        try {
            staging.end(entry); // nothing was moved there
        } catch (IOException | RuntimeException x) {
            e.addSuppressed(x);
        }
    }

    /**
     * Puts back what {@link #setAside} moved away from {@code p} (nothing else may be there). Its count
     * is released whatever happens, but what cannot be put back is never deleted: it stays with its
     * record, and the sweep gives it back (at the clean stop, or the next start). A name taken
     * meanwhile (a vault's move reported failed after its rename was made) is refused before any
     * property moves: the sidecar there is the resource's that took it, the entry keeps its own.
     */
    void putBack(Path entry, DavPath p) throws IOException {
        try {
            if (Files.exists(tree.file(p), LinkOption.NOFOLLOW_LINKS)) {
                throw new FileAlreadyExistsException("the name is taken"); // no name: names are the user's secrets
            }
            moveInto(entry, p);
            Files.deleteIfExists(recordOf(entry));
        } finally {
            staging.release();
        }
    }

    /**
     * Deletes what {@link #setAside} moved away (its replacement is in place): first renamed to an
     * entry the sweep deletes (one rename), so a crash while deleting never has a half-deleted
     * folder given back. A failure is no failure of the request (its replacement is in place): it is
     * logged (its kind only) and the next start's sweep finishes (an entry still there with its
     * record is given back beside the new resource as {@code NAME (recovered by Coffer)}, never lost).
     */
    void discard(Path entry) {
        Path trash = staging.freshName("delete");
        try {
            Files.move(entry, trash);
            Files.deleteIfExists(recordOf(entry));
            Files.deleteIfExists(propsOf(entry));
        } catch (IOException | RuntimeException e) {
            LOG.debug("an overwritten resource was not discarded (the next start's sweep ends it): {}", e.getClass().getName());
        } finally {
            try {
                staging.end(trash);
            } catch (IOException | RuntimeException e) {
                LOG.debug("an overwritten resource was not deleted (the next start does): {}", e.getClass().getName());
            }
        }
    }

    /**
     * At start: gives back {@code entry}, which a server killed mid-request left set aside, under its
     * recorded name if that is free (its folder still there), else as {@code NAME (recovered by
     * Coffer)} in that folder (or the root, if the folder is gone; {@code set aside} without a
     * record); then drops the record. An entry that cannot be given back stays where it is.
     */
    void restore(Path entry) throws IOException {
        Optional<DavPath> origin = readRecord(recordOf(entry));
        if (origin.isPresent() && !origin.get().isRoot() && tree.isFolder(origin.get().parent())
                && !Files.exists(tree.file(origin.get()), LinkOption.NOFOLLOW_LINKS)) {
            moveInto(entry, origin.get());
        } else {
            DavPath folder = origin.filter(o -> !o.isRoot()).map(DavPath::parent).filter(tree::isFolder).orElse(DavPath.ROOT);
            String base = origin.filter(o -> !o.isRoot()).map(DavPath::name).orElse("set aside");
            moveToFreeName(entry, folder, base);
        }
        Files.deleteIfExists(recordOf(entry));
    }

    /**
     * Gives back a {@linkplain #isLegacyEntryName legacy entry} found in {@code folder}: its name
     * was not recorded, and it may be the only copy of what a MOVE or COPY was overwriting (killed
     * before the new resource was in place) or what it had replaced (killed before deleting it), so
     * it is never deleted but made visible beside it as {@code set aside (recovered by Coffer)},
     * under the commit lock (a write of the folder like any other). Logged without names (they are
     * the user's secrets) at WARN; a failure is logged once per server and leaves it hidden for a later try.
     * Returns whether it was moved (by this call).
     */
    boolean giveBackLegacy(Path entry, DavPath folder) {
        try {
            synchronized (tree.commitLock()) {
                if (!Files.exists(entry, LinkOption.NOFOLLOW_LINKS)) {
                    return false; // given back by another listing meanwhile
                }
                moveToFreeName(entry, folder, "set aside");
            }
            // WARN, Coffer's default level: the user should learn that something reappeared (no name: names are secrets).
            LOG.warn("a file or folder an earlier Coffer version had set aside is back as 'set aside (recovered by Coffer)' in its folder");
            return true;
        } catch (IOException | RuntimeException e) {
            if (legacyFailureLogged.compareAndSet(false, true)) {
                LOG.warn("a file or folder an earlier Coffer version had set aside could not be given back (tried again at the next listing): {}",
                        e.getClass().getName());
            }
            return false;
        }
    }

    private void moveToFreeName(Path entry, DavPath folder, String base) throws IOException {
        for (int k = 1;; k++) {
            DavPath target = folder.child(base + " (recovered by Coffer" + (k == 1 ? "" : " " + k) + ")");
            if (Files.exists(tree.file(target), LinkOption.NOFOLLOW_LINKS)) {
                if (k >= 100) {
                    throw new FileAlreadyExistsException("no free name"); // not the name: names are the user's secrets
                }
                continue;
            }
            if (!Files.exists(propsOf(entry), LinkOption.NOFOLLOW_LINKS) && !Files.exists(recordOf(entry), LinkOption.NOFOLLOW_LINKS)) {
                // Legacy (no record, no sidecar of its own): a dead resource's sidecar left for the name is not taken over. With
                // a record, a start killed after giving its sidecar to this name left it here: it is the entry's own.
                tree.props().clearStale(target);
            }
            try {
                moveInto(entry, target); // refused, not replacing, if the name is taken
                return;
            } catch (FileAlreadyExistsException e) {
                if (k >= 100) {
                    throw e;
                }
            }
        }
    }

    /**
     * Gives {@code entry} the free name {@code p}, its sidecar first ({@link #giveBackProps}). If the
     * rename fails with the entry still in place, its sidecar goes back beside it (best effort), so
     * it is not left on a name the entry may never take.
     */
    private void moveInto(Path entry, DavPath p) throws IOException {
        boolean ownProps = Files.exists(propsOf(entry), LinkOption.NOFOLLOW_LINKS);
        giveBackProps(entry, p);
        try {
            Files.move(entry, tree.file(p));
        } catch (IOException | RuntimeException e) {
            if (ownProps) {
                takeBackProps(entry, p, e);
            }
            throw e;
        }
    }

    /** Undoes {@link #giveBackProps} after the entry's rename failed; failures are added to {@code e}. */
    private void takeBackProps(Path entry, DavPath p, Exception e) {
        try {
            if (!Files.exists(entry, LinkOption.NOFOLLOW_LINKS) || Files.exists(propsOf(entry), LinkOption.NOFOLLOW_LINKS)) {
                return; // the rename was made after all (a vault's failed folder fsync): the sidecar there is its own
            }
            Path sidecar = tree.props().sidecarOf(p);
            if (Files.exists(sidecar, LinkOption.NOFOLLOW_LINKS)) {
                Files.move(sidecar, propsOf(entry));
            } else {
                writeForced(propsOf(entry), new byte[0]);
            }
        } catch (IOException | RuntimeException x) {
            e.addSuppressed(x);
        }
    }

    /**
     * Before {@code entry} takes the name {@code p}: the sidecar it was set aside with becomes the
     * name's (an empty one: none, and any sidecar the name has goes, its replacement's or a dead
     * resource's). Without one (set aside by an older version, or killed before its sidecar
     * followed) the name's sidecar is left as it is. Killed after this, the entry has no sidecar
     * beside it any more and the name's is its own: the next try is right too.
     */
    private void giveBackProps(Path entry, DavPath p) throws IOException {
        Path props = propsOf(entry);
        if (!Files.exists(props, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (Files.size(props) == 0) {
            tree.props().clearStale(p);
            Files.delete(props);
        } else {
            Files.move(props, tree.props().sidecarOf(p), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /** Written and forced before the rename it describes: a record that is not whole has no entry (the sweep drops it). */
    private static void writeRecord(Path record, DavPath p) throws IOException {
        writeForced(record, p.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void writeForced(Path file, byte[] content) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(content);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
    }

    private static Optional<DavPath> readRecord(Path record) {
        try {
            return DavPath.parse(new String(Files.readAllBytes(record), StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
