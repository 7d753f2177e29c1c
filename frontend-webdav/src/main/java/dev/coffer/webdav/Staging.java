package dev.coffer.webdav;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where uploads and copies in progress are made before they are renamed into place: one hidden
 * folder in the served root ({@value #FOLDER}), outside every folder a client can list, copy or
 * move. So a MOVE or COPY of the folder an upload goes to never carries a half-written temp along,
 * and nobody sees (or, after a crash, keeps) a half-made copy under the target's name. The folder
 * is made at the first use and kept while the server runs: making and removing it for each upload
 * changed the root's modification time and ETag at every upload anywhere (clients polling the root
 * saw a change each time) and cost a folder creation and deletion (in a vault: a dir.c9r written
 * and forced) per PUT. A clean stop ({@link #close}) removes it, so a tree that is not served holds
 * nothing of the server's; what a killed server left in it is removed when the next server starts
 * ({@link #sweep}). Its name is reserved ({@link DavPath}): no request can reach it.
 *
 * <p>Not responsible for what is written there or for putting it in place ({@link WriteMethods}).
 */
final class Staging {
    static final String FOLDER = DeadProperties.RESERVED_PREFIX + "staging";
    private static final Logger LOG = LoggerFactory.getLogger(Staging.class);

    private final Path folder;
    private final Restorer restorer;
    /** Entries between {@link #begin} and {@link #end}. Guarded by this. */
    private int running;
    /** Whether this server made (or found) the folder and has not removed it. Guarded by this. */
    private boolean made;

    Staging(Path root, Restorer restorer) {
        this.folder = root.resolve(FOLDER);
        this.restorer = restorer;
    }

    /** Gives back an entry a killed server had set aside ({@link SetAside#restore}). */
    interface Restorer {
        void restore(Path entry) throws IOException;
    }

    /**
     * Cleans up after a server killed mid-request (only one server uses a tree at a time: a vault is
     * locked by the process that serves it): gives back what was set aside ({@link SetAside#restore},
     * never deleted), deletes uploads, copies and deletions in progress, then the folder. A failure (a
     * read-only vault) is no reason not to serve: what could not be cleaned up stays for the next start.
     */
    void sweep() {
        try {
            // inside the try: at a stop the vault may already be locked (ClosedFileSystemException)
            if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            List<Path> entries;
            try (Stream<Path> s = Files.list(folder)) {
                entries = s.toList();
            }
            for (Path e : entries) {
                String name = e.getFileName().toString();
                try {
                    if (SetAside.isEntryName(name)) {
                        restorer.restore(e);
                    } else if (!name.endsWith(SetAside.RECORD_SUFFIX) && !name.endsWith(SetAside.PROPS_SUFFIX)) {
                        DavTree.deleteTree(e);
                    }
                } catch (IOException | RuntimeException x) {
                    LOG.debug("a leftover in the staging folder stays: {}", x.getClass().getName());
                }
            }
            for (Path e : entries) {
                String name = e.getFileName().toString();
                String suffix = name.endsWith(SetAside.RECORD_SUFFIX) ? SetAside.RECORD_SUFFIX
                        : name.endsWith(SetAside.PROPS_SUFFIX) && !SetAside.isEntryName(name) ? SetAside.PROPS_SUFFIX : null;
                if (suffix != null && !Files.exists(e.resolveSibling(name.substring(0, name.length() - suffix.length())), LinkOption.NOFOLLOW_LINKS)) {
                    Files.deleteIfExists(e); // its entry was never moved there, or was given back or deleted
                }
            }
            Files.delete(folder);
        } catch (IOException | RuntimeException e) {
            LOG.debug("the staging folder stays: {}", e.getClass().getName());
        }
    }

    /** A fresh path (not yet created) for one {@code kind} of entry ("upload", "copy"); pair with {@link #end}. */
    synchronized Path begin(String kind) throws IOException {
        if (!made) {
            Files.createDirectories(folder);
            made = true;
        }
        running++;
        return freshName(kind);
    }

    /** A fresh name in the folder, not counted as an entry (a new name for one that {@link #begin} counted). */
    Path freshName(String kind) {
        return folder.resolve(DeadProperties.RESERVED_PREFIX + kind + "-" + UUID.randomUUID());
    }

    /** Removes what is left at {@code staged} (it was not put in place) and {@link #release}s its count. */
    void end(Path staged) throws IOException {
        try {
            DavTree.deleteTree(staged);
        } finally {
            release();
        }
    }

    /**
     * Ends one {@link #begin} without deleting anything: for an entry that must stay (a set-aside
     * that could not be put back keeps its record for the sweep). Each begin is paired with exactly
     * one end or release on every path: a count never released kept a clean stop from removing the folder.
     */
    synchronized void release() {
        running--;
    }

    /**
     * At a clean stop (no request runs any more): removes the folder, if nothing is staged. A request
     * still running past the stop's grace time keeps it; the next start sweeps it then.
     */
    synchronized void close() {
        if (!made || running > 0) {
            return;
        }
        made = false;
        sweep();
    }
}
