package dev.coffer.core.util;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A change was made on disk (a rename, a creation, a deletion), but the fsync of the folder that
 * holds it failed, so it may not survive a crash: the disk reported an error (EIO, or a full disk).
 * Callers must not treat the change as undone, nor take a later step that is safe only once it is
 * durable (deleting what it replaced). The message keeps the system's reason, so that a full disk
 * still reads as one.
 */
public final class NotDurableException extends IOException {
    private static final long serialVersionUID = 1L;

    public NotDurableException(Path folder, IOException cause) {
        super(folder + ": the change was made, but the disk reported an error when it was saved for good ("
                + cause.getMessage() + "); it may not survive a crash", cause);
    }
}
