package dev.coffer.app.vaults;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Linux: a FUSE drive is in use if a process has a file open inside it or its working folder there,
 * found by reading the links under {@code /proc/PID/fd} and {@code /proc/PID/cwd} (only the
 * person's own processes are readable, which are the ones that matter). A drive that is not a
 * local folder (a WebDAV URL nobody mounted) cannot be seen this way, and WebDAV has no "busy" to
 * stop a lock, so it counts as in use: auto-lock never locks it under a client.
 *
 * <p>Not responsible for anything but answering the question; reading /proc is cheap enough for a
 * tick every 30 seconds.
 */
public final class OpenFilesProbe implements ActivityProbe {
    private final Path proc;

    public OpenFilesProbe(Path proc) {
        this.proc = proc;
    }

    public static OpenFilesProbe system() {
        return new OpenFilesProbe(Path.of("/proc"));
    }

    @Override
    public boolean inUse(Drive drive) {
        if (!"file".equals(drive.revealTarget().getScheme())) {
            return true;
        }
        Path mount = Path.of(drive.revealTarget());
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc, p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path pid : pids) {
                if (pointsInto(pid.resolve("cwd"), mount) || anyFdInto(pid.resolve("fd"), mount)) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    private static boolean anyFdInto(Path fds, Path mount) {
        try (DirectoryStream<Path> links = Files.newDirectoryStream(fds)) {
            for (Path link : links) {
                if (pointsInto(link, mount)) {
                    return true;
                }
            }
        } catch (IOException | SecurityException e) {
            return false; // another user's process, or it just exited
        }
        return false;
    }

    private static boolean pointsInto(Path link, Path mount) {
        try {
            return Files.readSymbolicLink(link).startsWith(mount);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
