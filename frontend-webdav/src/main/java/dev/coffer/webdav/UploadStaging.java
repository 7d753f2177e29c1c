package dev.coffer.webdav;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where uploads in progress keep their bytes: one hidden folder in the served root
 * ({@value #FOLDER}), outside every folder a client can list, copy or move, so a MOVE or COPY of the
 * folder an upload goes to never carries a half-written temp along. The folder exists only while
 * uploads run (made by the first, removed by the last), so an idle tree holds nothing of the
 * server's; what a killed server left in it is removed when the next server starts ({@link #sweep}).
 * Its name is reserved ({@link DavPath}): no request can reach it.
 *
 * <p>Not responsible for writing an upload or putting it in place ({@link WriteMethods#put}).
 */
final class UploadStaging {
    static final String FOLDER = DeadProperties.RESERVED_PREFIX + "uploads";
    private static final Logger LOG = LoggerFactory.getLogger(UploadStaging.class);

    private final Path folder;
    /** Uploads between {@link #begin} and {@link #end}; the folder exists while this is above 0. Guarded by this. */
    private int running;

    UploadStaging(Path root) {
        this.folder = root.resolve(FOLDER);
    }

    /**
     * Removes what a server killed mid-upload left (only one server uses a tree at a time: a vault
     * is locked by the process that serves it). A failure (a read-only vault) is no reason not to serve.
     */
    void sweep() {
        try {
            DavTree.deleteTree(folder);
        } catch (IOException | RuntimeException e) {
            LOG.debug("leftover uploads not removed: {}", e.getClass().getName());
        }
    }

    /** A fresh temp path for one upload (not yet created); pair with {@link #end}. */
    synchronized Path begin() throws IOException {
        if (running == 0) {
            Files.createDirectories(folder);
        }
        running++;
        return folder.resolve(DeadProperties.RESERVED_PREFIX + "upload-" + UUID.randomUUID());
    }

    /** Removes the upload's temp if it is still there (a failed upload) and, after the last upload, the folder. */
    void end(Path temp) throws IOException {
        try {
            Files.deleteIfExists(temp);
        } finally {
            synchronized (this) {
                if (--running == 0) {
                    try {
                        Files.deleteIfExists(folder);
                    } catch (IOException e) {
                        // a temp that could not be deleted: it stays hidden until the next start sweeps it
                    }
                }
            }
        }
    }
}
