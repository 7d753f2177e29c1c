package dev.coffer.webdav;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * Linux: which processes use a folder (a drive's mount point), read from {@code /proc/PID/fd} (where
 * the links point), {@code /proc/PID/fdinfo} (the open flags) and {@code /proc/PID/cwd}. Only the
 * user's own processes are readable, which are the ones using the user's mount.
 *
 * <p>Used by {@link GioMount} (gvfs unmounts while a program still has a file open for writing
 * through gvfsd-fuse, and what it wrote is never uploaded: the writers are waited for) and by the
 * app's auto-lock (a drive with any file open, or a working folder in it, is in use). Not
 * responsible for the waiting or the deciding.
 */
public final class OpenFilesUnder {
    private static final int ACCESS_MODE = 03; // O_ACCMODE: O_RDONLY 0, O_WRONLY 1, O_RDWR 2

    private final Path proc;

    /** @param proc the proc file system ({@code /proc}; tests may pass a folder without processes) */
    public OpenFilesUnder(Path proc) {
        this.proc = proc;
    }

    /** The ids of processes with a file under {@code folder} open for writing (none if /proc is unreadable). */
    public Set<Long> writers(Path folder) {
        Set<Long> pids = new TreeSet<>();
        for (Path pid : processes()) {
            if (anyFd(pid, folder, true)) {
                pids.add(Long.parseLong(pid.getFileName().toString()));
            }
        }
        return pids;
    }

    /** True if a process has a file open under {@code folder} or works in it (false if /proc is unreadable). */
    public boolean anyUnder(Path folder) {
        for (Path pid : processes()) {
            if (pointsInto(pid.resolve("cwd"), folder) || anyFd(pid, folder, false)) {
                return true;
            }
        }
        return false;
    }

    private Iterable<Path> processes() {
        Set<Path> pids = new TreeSet<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(proc, p -> p.getFileName().toString().matches("\\d+"))) {
            all.forEach(pids::add);
        } catch (IOException e) {
            // no /proc: nobody is seen
        }
        return pids;
    }

    private static boolean anyFd(Path pid, Path folder, boolean writersOnly) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(pid.resolve("fd"))) {
            for (Path fd : fds) {
                if (pointsInto(fd, folder) && (!writersOnly || openForWriting(pid.resolve("fdinfo").resolve(fd.getFileName())))) {
                    return true;
                }
            }
        } catch (IOException | SecurityException e) {
            return false; // another user's process, or it just exited
        }
        return false;
    }

    private static boolean pointsInto(Path link, Path folder) {
        try {
            return Files.readSymbolicLink(link).startsWith(folder);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** fdinfo's "flags:" line is the open flags in octal. */
    private static boolean openForWriting(Path fdinfo) {
        try {
            for (String line : Files.readAllLines(fdinfo)) {
                if (line.startsWith("flags:")) {
                    int mode = Integer.parseInt(line.substring("flags:".length()).trim(), 8) & ACCESS_MODE;
                    return mode != 0;
                }
            }
        } catch (IOException | NumberFormatException | SecurityException e) {
            return false;
        }
        return false;
    }
}
