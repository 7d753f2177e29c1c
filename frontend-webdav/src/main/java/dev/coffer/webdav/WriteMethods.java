package dev.coffer.webdav;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The methods that change the tree: PUT (streamed to a {@link FileChannel} through a hidden temp
 * file in {@link Staging}, renamed over the target, so an aborted upload never leaves half a
 * file), DELETE, MKCOL, COPY
 * and MOVE (Depth, Overwrite, Destination), each after {@link Preconditions} (If, If-Match,
 * If-None-Match, lock tokens), checked (again) under the tree's commit lock together with the change
 * itself, so a LOCK granted meanwhile is seen, never overridden. Locks on a deleted or moved-away
 * resource are dropped.
 *
 * <p>Not responsible for LOCK/UNLOCK ({@link LockMethods}) or the read methods (Milton).
 */
final class WriteMethods {
    private static final int BUFFER = 256 * 1024;

    private final DavTree tree;
    private final LockManager locks;
    private final Preconditions pre;
    /**
     * Held while a PUT, MKCOL, COPY or MOVE checks once more and puts its result in place, and while a
     * DELETE checks and removes; LOCK and PROPPATCH take it too ({@link DavTree#commitLock}).
     */
    private final Object commits;

    /**
     * Where a PUT, MKCOL, COPY, MOVE or PROPPATCH may be held by a test: after its first checks, and
     * under the commit lock before its change (a rename, a new folder, the properties written).
     */
    enum Stage { CHECKED, COMMITTING }

    /**
     * Tests only: called at each {@link Stage} of a PUT, MKCOL, COPY, MOVE or PROPPATCH ({@link
     * PropPatchMethod}), so a test can hold a request there (a latch) and show what another request
     * does meanwhile. Does nothing unless a test sets it.
     */
    static volatile java.util.function.Consumer<Stage> pauseForTests = stage -> {};

    WriteMethods(DavTree tree, LockManager locks, Preconditions pre) {
        this.tree = tree;
        this.locks = locks;
        this.pre = pre;
        this.commits = tree.commitLock();
    }

    DavReply put(HttpServletRequest req, DavPath p) throws IOException {
        if (req.getHeader("Content-Range") != null || p.isRoot()) {
            return DavReply.status(400); // RFC 9110 14.5: a PUT with Content-Range must be refused
        }
        Optional<BasicFileAttributes> existing = tree.attributes(p);
        if (existing.isPresent() && existing.get().isDirectory()) {
            return DavReply.status(405);
        }
        if (!tree.isFolder(p.parent())) {
            return DavReply.status(409);
        }
        Optional<DavError> refused = common(req, p, existing.isPresent() ? pre.locksForChange(p) : pre.locksForMembership(p));
        if (refused.isPresent()) {
            return DavReply.of(refused.get());
        }
        long expected = expectedLength(req);
        Path target = tree.file(p);
        if (expected > 0 && expected > Files.getFileStore(target.getParent()).getUsableSpace()) {
            return DavReply.status(507);
        }
        // Not beside the target: a MOVE or COPY of its folder meanwhile would carry the half-written temp along.
        Path tmp = tree.staging().begin("upload");
        boolean existed;
        try {
            // The request's input stream stays open: the container owns it (and checks it was read to the end).
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                copy(req.getInputStream(), ch);
                ch.force(true); // on disk before it takes the name: a crash after the answer keeps it (or the old file)
            }
            // The body took its time: another client may have written or locked the target meanwhile.
            // The conditions are checked again and the upload put in place as one step, so that of two
            // uploads made against the same ETag only the first lands (the other gets 412).
            pauseForTests.accept(Stage.CHECKED);
            synchronized (commits) {
                if (!tree.isFolder(p.parent())) {
                    return DavReply.status(409); // its folder was moved or deleted meanwhile: the upload goes nowhere else
                }
                Optional<BasicFileAttributes> now = tree.attributes(p);
                if (now.isPresent() && now.get().isDirectory()) {
                    return DavReply.status(405);
                }
                Optional<DavError> late = common(req, p, now.isPresent() ? pre.locksForChange(p) : pre.locksForMembership(p));
                if (late.isPresent()) {
                    return DavReply.of(late.get());
                }
                pauseForTests.accept(Stage.COMMITTING);
                if (now.isEmpty()) {
                    tree.props().clearStale(p); // a new file does not inherit what a killed server left for the name
                }
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                existed = now.isPresent();
            }
        } finally {
            tree.staging().end(tmp);
        }
        DavReply r = DavReply.status(existed ? 204 : 201);
        Etags.of(target).ifPresent(e -> r.header("ETag", e));
        return r;
    }

    DavReply delete(HttpServletRequest req, DavPath p) throws IOException {
        if (p.isRoot()) {
            return DavReply.status(403);
        }
        if (tree.attributes(p).isEmpty()) {
            return DavReply.status(404);
        }
        String depth = req.getHeader("Depth");
        if (depth != null && !depth.equalsIgnoreCase("infinity") && tree.isFolder(p)) {
            return DavReply.status(400); // RFC 4918 9.6.1: DELETE of a collection is always depth infinity
        }
        Path staged = null;
        // Checked and taken out of the tree under the commit lock, so no LOCK is granted in between;
        // a folder's members are deleted after, out of sight (DavTree.delete).
        try {
            synchronized (commits) {
                if (tree.attributes(p).isEmpty()) {
                    return DavReply.status(404);
                }
                Optional<DavError> refused = common(req, p, pre.locksForMembership(p));
                if (refused.isPresent()) {
                    return DavReply.of(refused.get());
                }
                staged = tree.delete(p);
                locks.removeAtOrBelow(p);
            }
        } finally {
            tree.finishDelete(staged);
        }
        return DavReply.status(204);
    }

    DavReply mkcol(HttpServletRequest req, DavPath p) throws IOException {
        if (req.getContentLengthLong() > 0 || req.getHeader("Transfer-Encoding") != null) {
            return DavReply.status(415);
        }
        Optional<DavReply> refused = mkcolRefusal(req, p);
        if (refused.isPresent()) {
            return refused.get();
        }
        pauseForTests.accept(Stage.CHECKED);
        // Checked again and made as one step: a LOCK of the folder granted since the checks above
        // would otherwise be overridden (a member added to a locked folder without its token).
        synchronized (commits) {
            Optional<DavReply> late = mkcolRefusal(req, p);
            if (late.isPresent()) {
                return late.get();
            }
            pauseForTests.accept(Stage.COMMITTING);
            tree.props().clearStale(p); // a new folder does not inherit what a killed server left for the name
            Files.createDirectory(tree.file(p));
        }
        return DavReply.status(201);
    }

    private Optional<DavReply> mkcolRefusal(HttpServletRequest req, DavPath p) {
        if (tree.attributes(p).isPresent()) {
            return Optional.of(DavReply.status(405));
        }
        if (!tree.isFolder(p.parent())) {
            return Optional.of(DavReply.status(409));
        }
        return common(req, p, pre.locksForMembership(p)).map(DavReply::of);
    }

    DavReply copyOrMove(HttpServletRequest req, DavPath src, boolean move) throws IOException {
        String destination = req.getHeader("Destination");
        if (destination == null) {
            return DavReply.status(400);
        }
        String authority = DavUrls.authority(destination);
        if (authority != null && !sameServer(authority, req.getHeader("Host"))) {
            return DavReply.status(502); // RFC 4918 9.8.5: another server
        }
        Optional<DavPath> parsed = tree.urls().fromUrl(destination);
        if (parsed.isEmpty()) {
            return DavReply.status(authority == null && !destination.startsWith("/") ? 400 : 403);
        }
        DavPath dst = parsed.get();
        Optional<BasicFileAttributes> srcAttrs = tree.attributes(src);
        if (srcAttrs.isEmpty()) {
            return DavReply.status(404);
        }
        if (dst.startsWith(src) || src.startsWith(dst) || src.isRoot() || dst.isRoot()) {
            // Onto or into itself, or onto a folder that holds it: overwriting that folder would delete the source too.
            return DavReply.status(403);
        }
        String depth = req.getHeader("Depth");
        boolean deep = depth == null || depth.equalsIgnoreCase("infinity");
        if (!deep && (move || !depth.equals("0"))) {
            return DavReply.status(400);
        }
        if (!tree.isFolder(dst.parent())) {
            return DavReply.status(409);
        }
        boolean dstExists = tree.attributes(dst).isPresent();
        boolean overwrite = !"F".equalsIgnoreCase(String.valueOf(req.getHeader("Overwrite")).trim());
        List<DavLock> needed = new ArrayList<>(pre.locksForMembership(dst));
        if (move) {
            needed.addAll(pre.locksForMembership(src));
        }
        Optional<DavError> refused = pre.checkIf(req.getHeader("If"), src)
                .or(() -> pre.checkLocks(req.getHeader("If"), needed));
        if (refused.isPresent()) {
            return DavReply.of(refused.get());
        }
        if (dstExists && !overwrite) {
            return DavReply.status(412);
        }
        // A copy is made out of sight (Staging) and renamed in once whole: until then the target is
        // as it was (or absent), and a failed or interrupted copy leaves nothing under its name.
        Path staged = move ? null : tree.staging().begin("copy");
        Path aside = null;
        try {
            if (!move) {
                tree.copyToStaging(src, staged, deep);
            }
            pauseForTests.accept(Stage.CHECKED);
            synchronized (commits) {
                // The copy took its time, and a LOCK may have been granted since the checks above: the
                // source and target may have been made, removed or locked meanwhile.
                if (move && tree.attributes(src).isEmpty()) {
                    return DavReply.status(404);
                }
                if (!tree.isFolder(dst.parent())) {
                    return DavReply.status(409);
                }
                List<DavLock> lateNeeded = new ArrayList<>(pre.locksForMembership(dst));
                if (move) {
                    lateNeeded.addAll(pre.locksForMembership(src));
                }
                Optional<DavError> late = pre.checkIf(req.getHeader("If"), src)
                        .or(() -> pre.checkLocks(req.getHeader("If"), lateNeeded));
                if (late.isPresent()) {
                    return DavReply.of(late.get());
                }
                dstExists = tree.attributes(dst).isPresent();
                if (dstExists && !overwrite) {
                    return DavReply.status(412);
                }
                // A file over a file is replaced by one rename, as a PUT's: the name is never absent, and
                // a crash cannot leave the old file hidden under a server name with the name gone. What
                // else is overwritten (a folder, or a file by a folder) is set aside, not deleted, until
                // the new resource is in place, and put back if that fails.
                boolean fileOverFile = dstExists && !tree.isFolder(dst) && tree.attributes(src).map(a -> !a.isDirectory()).orElse(false);
                pauseForTests.accept(Stage.COMMITTING);
                aside = dstExists && !fileOverFile ? tree.setAside(dst) : null;
                DavTree.Target target = fileOverFile ? DavTree.Target.FILE : DavTree.Target.FREE; // set aside: free of it and its properties
                if (move) {
                    tree.move(src, dst, target);
                } else {
                    tree.putCopyInPlace(staged, src, dst, target);
                }
            }
        } catch (IOException | RuntimeException e) {
            if (aside != null) {
                try {
                    tree.putBack(aside, dst);
                } catch (IOException | RuntimeException putBack) {
                    e.addSuppressed(putBack);
                }
            }
            throw e;
        } finally {
            if (staged != null) {
                tree.staging().end(staged);
            }
        }
        if (aside != null) {
            tree.discard(aside);
        }
        if (dstExists) {
            locks.removeAtOrBelow(dst); // the overwritten resource's locks go with it
        }
        if (move) {
            locks.removeAtOrBelow(src);
        }
        return DavReply.status(dstExists ? 204 : 201);
    }

    /**
     * Whether a Destination's host[:port] names this server, reached as {@code host} (the request's
     * Host): the same text, or another name of the loopback interface (it serves 127.0.0.1 only:
     * localhost, 127.0.0.1, [::1]) with the same port.
     */
    static boolean sameServer(String authority, String host) {
        if (host == null) {
            return false;
        }
        if (authority.equalsIgnoreCase(host)) {
            return true;
        }
        int a = authority.lastIndexOf(':');
        int h = host.lastIndexOf(':');
        if (a < 0 || h < 0 || authority.endsWith("]") || host.endsWith("]")) {
            return false;
        }
        return authority.substring(a).equals(host.substring(h))
                && loopback(authority.substring(0, a)) && loopback(host.substring(0, h));
    }

    private static boolean loopback(String name) {
        return name.equalsIgnoreCase("localhost") || name.equals("127.0.0.1") || name.equals("[::1]");
    }

    private Optional<DavError> common(HttpServletRequest req, DavPath p, Collection<DavLock> needed) {
        return pre.checkIf(req.getHeader("If"), p)
                .or(() -> pre.checkMatch(req.getHeader("If-Match"), req.getHeader("If-None-Match"), p))
                .or(() -> pre.checkLocks(req.getHeader("If"), needed));
    }

    /** Content-Length, or macOS Finder's X-Expected-Entity-Length for a chunked body; -1 if unknown. */
    private static long expectedLength(HttpServletRequest req) {
        long cl = req.getContentLengthLong();
        if (cl >= 0) {
            return cl;
        }
        String x = req.getHeader("X-Expected-Entity-Length");
        try {
            return x == null ? -1 : Long.parseLong(x.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void copy(InputStream in, FileChannel ch) throws IOException {
        byte[] buf = new byte[BUFFER];
        ByteBuffer bb = ByteBuffer.wrap(buf);
        int n;
        while ((n = in.read(buf)) >= 0) {
            bb.clear().limit(n);
            while (bb.hasRemaining()) {
                ch.write(bb);
            }
        }
    }
}
