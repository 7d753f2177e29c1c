package dev.coffer.core.names;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;

/**
 * Whether an entry folder without a payload may still be filled by a sync in progress: its name
 * file must then stay, or the payload arriving later would lie in a folder no listing can name.
 * A day, as spec 6 gives temporary files.
 */
final class SyncGrace {
    static final Duration GRACE = Duration.ofDays(1);

    private SyncGrace() {}

    /**
     * Whether the folder {@code path} (with attributes {@code attrs}) or anything directly in it was
     * modified within {@link #GRACE}: a sync client keeps a file's own time, but adding the file
     * changes the folder's.
     */
    static boolean changedRecently(Path path, BasicFileAttributes attrs) throws IOException {
        Instant limit = Instant.now().minus(GRACE);
        if (!attrs.lastModifiedTime().toInstant().isBefore(limit)) {
            return true;
        }
        for (String inner : DirectoryLister.sortedNames(path)) {
            try {
                if (!Files.getLastModifiedTime(path.resolve(inner), LinkOption.NOFOLLOW_LINKS).toInstant().isBefore(limit)) {
                    return true;
                }
            } catch (NoSuchFileException gone) {
                return true; // changing right now
            }
        }
        return false;
    }

    /** As above; a folder that is gone counts as changing. */
    static boolean changedRecently(Path path) throws IOException {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException gone) {
            return true;
        }
        return changedRecently(path, attrs);
    }
}
