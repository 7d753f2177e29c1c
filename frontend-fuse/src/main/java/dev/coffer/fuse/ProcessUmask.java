package dev.coffer.fuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * This process's umask, as Linux reports it in {@code /proc/self/status} (since 4.7): the bits a file
 * this process creates loses. Read without changing it (umask(2) can only be read by setting it, which
 * would race other threads' creates). Nothing in Coffer changes it after start.
 */
final class ProcessUmask {
    /** Where the umask cannot be read: every permission bit may have been removed. */
    static final int UNKNOWN = 0777;

    private static final int CURRENT = parse(Path.of("/proc/self/status"));

    private ProcessUmask() {
    }

    /** The umask's permission bits (read once), or {@link #UNKNOWN}. */
    static int current() {
        return CURRENT;
    }

    static int parse(Path status) {
        try {
            List<String> lines = Files.readAllLines(status, StandardCharsets.US_ASCII);
            for (String line : lines) {
                if (line.startsWith("Umask:")) {
                    return Integer.parseInt(line.substring("Umask:".length()).trim(), 8) & 0777;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux, or an older kernel: unknown
        }
        return UNKNOWN;
    }
}
