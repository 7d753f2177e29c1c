package dev.coffer.webdav;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where uploads and copies in progress are made before they are renamed into place: one hidden
 * folder in the served root ({@value #FOLDER}), outside every folder a client can list, copy or
 * move. So a MOVE or COPY of the folder an upload goes to never carries a half-written temp along,
 * and nobody sees (or, after a crash, keeps) a half-made copy under the target's name. The folder
 * exists only while something is staged (made by the first, removed by the last), so an idle tree
 * holds nothing of the server's; what a killed server left in it is removed when the next server
 * starts ({@link #sweep}). Its name is reserved ({@link DavPath}): no request can reach it.
 *
 * <p>Not responsible for what is written there or for putting it in place ({@link WriteMethods}).
 */
final class Staging {
    static final String FOLDER = DeadProperties.RESERVED_PREFIX + "staging";
    private static final Logger LOG = LoggerFactory.getLogger(Staging.class);

    private final Path folder;
    /** Entries between {@link #begin} and {@link #end}; the folder exists while this is above 0. Guarded by this. */
    private int running;

    Staging(Path root) {
        this.folder = root.resolve(FOLDER);
    }

    /**
     * Removes what a server killed mid-request left (only one server uses a tree at a time: a vault
     * is locked by the process that serves it). A failure (a read-only vault) is no reason not to serve.
     */
    void sweep() {
        try {
            DavTree.deleteTree(folder);
        } catch (IOException | RuntimeException e) {
            LOG.debug("leftovers in the staging folder not removed: {}", e.getClass().getName());
        }
    }

    /** A fresh path (not yet created) for one {@code kind} of entry ("upload", "copy"); pair with {@link #end}. */
    synchronized Path begin(String kind) throws IOException {
        if (running == 0) {
            Files.createDirectories(folder);
        }
        running++;
        return folder.resolve(DeadProperties.RESERVED_PREFIX + kind + "-" + UUID.randomUUID());
    }

    /** Removes what is left at {@code staged} (it was not put in place) and, after the last entry, the folder. */
    void end(Path staged) throws IOException {
        try {
            DavTree.deleteTree(staged);
        } finally {
            synchronized (this) {
                if (--running == 0) {
                    try {
                        Files.deleteIfExists(folder);
                    } catch (IOException e) {
                        // something that could not be deleted: it stays hidden until the next start sweeps it
                    }
                }
            }
        }
    }
}
