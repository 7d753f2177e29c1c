package dev.coffer.fuse;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * libfuse 2's kept names ({@code .fuse_hidden} and 16 hex digits): where it moves an open file that a
 * program unlinks, or renames another file over, and the name it then calls that file by until its
 * last close, when it deletes it. Knows, per worker thread, what the request in progress did with
 * kept names, and, for the whole session, which kept names stand for a file that went back under a
 * name of its own.
 *
 * <p>Per request: libfuse looks a kept name up (to find a free one) right before it moves a file there,
 * within the same request, so a move to a kept name that was not looked up first is a program's own
 * (refused: it would put the file out of sight, deleted when the mount ends); and a rename's target
 * moved away is remembered, so that the rename can put it back if it fails.
 *
 * <p>Thread-safe. Not responsible for moving anything ({@link TreeOps}) or for paths ({@link Backing}).
 */
final class KeptNames {
    static final String PREFIX = ".fuse_hidden";

    /** What the request in progress on one worker thread did with kept names. */
    private static final class Request {
        String lookedUp;
        String movedFrom;
        String movedTo;
    }

    /**
     * Where a kept name's file went back to: its kernel path now (kept up to date through renames made
     * through the mount, {@link #renamed}), or null if it could go nowhere and stays in the reserved
     * folder, kept from libfuse's delete (under {@code keepName} there if it could be marked to keep,
     * else under its kept name); and the file's identity then
     * ({@link java.nio.file.attribute.BasicFileAttributes#fileKey()}, null if the store has none), so
     * that a new file given that name later is not taken for it.
     */
    record Restored(String where, Object fileKey, String keepName) {
        Restored(String where, Object fileKey) {
            this(where, fileKey, null);
        }
    }

    private final ThreadLocal<Request> request = ThreadLocal.withInitial(Request::new);
    /** Kept names whose file went back under a name of its own, for the session: libfuse never reuses one. */
    private final Map<String, Restored> restored = new ConcurrentHashMap<>();

    /** True for a kernel path whose last name is a kept name. */
    static boolean isKept(String fusePath) {
        return lastName(fusePath).startsWith(PREFIX);
    }

    /** A new request begins on this thread. */
    void requestStarts() {
        Request r = request.get();
        r.lookedUp = null;
        r.movedFrom = null;
        r.movedTo = null;
    }

    /** libfuse (or a program) looked {@code keptPath} up in the request in progress. */
    void lookedUp(String keptPath) {
        request.get().lookedUp = keptPath;
    }

    /** True if {@code keptPath} was looked up earlier in this request: a move there is libfuse's. */
    boolean lookedUpThisRequest(String keptPath) {
        return keptPath.equals(request.get().lookedUp);
    }

    /** The file at {@code from} was moved to {@code keptPath} in this request. */
    void movedAway(String from, String keptPath) {
        Request r = request.get();
        r.movedFrom = from;
        r.movedTo = keptPath;
    }

    /** The kept path that the file at {@code path} was moved to earlier in this request, or null; forgets it. */
    String takeMovedAway(String path) {
        Request r = request.get();
        if (!path.equals(r.movedFrom)) {
            return null;
        }
        String kept = r.movedTo;
        r.movedFrom = null;
        r.movedTo = null;
        return kept;
    }

    /** The file libfuse keeps under {@code keptPath} is back at kernel path {@code where}, or (null) nowhere. */
    void restored(String keptPath, String where, Object fileKey) {
        restored.put(lastName(keptPath), new Restored(where, fileKey));
    }

    /** The file libfuse keeps under {@code keptPath} went nowhere; it is in the reserved folder as {@code keepName}. */
    void markedToKeep(String keptPath, String keepName) {
        restored.put(lastName(keptPath), new Restored(null, null, keepName));
    }

    /** Where a restored kept path's file went, or null if it did not. */
    Restored restoredOf(String keptPath) {
        return restored.get(lastName(keptPath));
    }

    /** A rename through the mount succeeded: a put-back file at or below {@code from} is now below {@code to}. */
    void renamed(String from, String to) {
        if (restored.isEmpty()) {
            return;
        }
        restored.replaceAll((name, r) -> {
            String w = r.where();
            if (w == null) {
                return r;
            }
            if (w.equals(from)) {
                return new Restored(to, r.fileKey());
            }
            return w.startsWith(from + "/") ? new Restored(to + w.substring(from.length()), r.fileKey()) : r;
        });
    }

    static String lastName(String fusePath) {
        return fusePath.substring(fusePath.lastIndexOf('/') + 1);
    }
}
