package dev.coffer.core.util;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;

/** Deletes ciphertext files with as few system calls as the platform allows. */
public final class FileDeletion {
    private FileDeletion() {}

    /**
     * Deletes {@code file}, expected to be a regular file. On the default file system java.io asks
     * first: one unlink, where NIO stats the path before it (to choose between unlink and rmdir),
     * which cost a stat per file of rm -rf. If java.io fails (or the path is elsewhere), NIO deletes
     * it or throws the exception that says why.
     */
    public static void deleteRegularFile(Path file) throws IOException {
        if (file.getFileSystem() == FileSystems.getDefault() && file.toFile().delete()) {
            return;
        }
        Files.delete(file);
    }

    /** {@link #deleteRegularFile}, for a file that may be gone already: false if nothing was there. */
    public static boolean deleteRegularFileIfExists(Path file) throws IOException {
        if (file.getFileSystem() == FileSystems.getDefault() && file.toFile().delete()) {
            return true;
        }
        return Files.deleteIfExists(file);
    }
}
