package dev.coffer.webdav;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * Linux: which processes have a file open for writing inside a folder, read from {@code
 * /proc/PID/fd} (where the links point) and {@code /proc/PID/fdinfo} (the open flags). Only the
 * user's own processes are readable, which are the ones writing through the user's mount.
 *
 * <p>Why: gvfs unmounts a WebDAV mount without complaint while a program still has a file open for
 * writing through gvfsd-fuse, and what it wrote is never uploaded; {@link GioMount} waits for these
 * processes first. Not responsible for readers (they lose nothing) or for the waiting.
 */
final class OpenWriters {
    private static final int ACCESS_MODE = 03; // O_ACCMODE: O_RDONLY 0, O_WRONLY 1, O_RDWR 2

    private final Path proc;

    OpenWriters(Path proc) {
        this.proc = proc;
    }

    /** The ids of processes with a file under {@code folder} open for writing (none if /proc is unreadable). */
    Set<Long> under(Path folder) {
        Set<Long> pids = new TreeSet<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(proc, p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path pid : all) {
                if (writesUnder(pid, folder)) {
                    pids.add(Long.parseLong(pid.getFileName().toString()));
                }
            }
        } catch (IOException e) {
            return pids;
        }
        return pids;
    }

    private static boolean writesUnder(Path pid, Path folder) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(pid.resolve("fd"))) {
            for (Path fd : fds) {
                if (pointsInto(fd, folder) && openForWriting(pid.resolve("fdinfo").resolve(fd.getFileName()))) {
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
