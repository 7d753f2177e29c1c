package dev.coffer.app.vaults;

import dev.coffer.webdav.OpenFilesUnder;
import java.nio.file.Path;

/**
 * Linux: a FUSE drive is in use if a process has a file open inside it or its working folder there,
 * found by reading the links under {@code /proc/PID/fd} and {@code /proc/PID/cwd} ({@link
 * OpenFilesUnder}, which the gio mount uses too; only the person's own processes are readable,
 * which are the ones that matter). A drive that is not a local folder (a WebDAV URL nobody
 * mounted) cannot be seen this way, so it counts as in use: auto-lock never locks it under a client.
 *
 * <p>Not responsible for anything but answering the question; reading /proc is cheap enough for a
 * tick every 30 seconds.
 */
public final class OpenFilesProbe implements ActivityProbe {
    private final OpenFilesUnder openFiles;

    public OpenFilesProbe(Path proc) {
        this.openFiles = new OpenFilesUnder(proc);
    }

    public static OpenFilesProbe system() {
        return new OpenFilesProbe(Path.of("/proc"));
    }

    @Override
    public boolean inUse(Drive drive) {
        if (!"file".equals(drive.revealTarget().getScheme())) {
            return true;
        }
        return openFiles.anyUnder(Path.of(drive.revealTarget()));
    }
}
