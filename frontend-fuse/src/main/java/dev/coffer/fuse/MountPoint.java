package dev.coffer.fuse;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The folder a vault is mounted on, before and after: clears a stale mount that a killed process
 * left there ("Transport endpoint is not connected"), refuses a live mount, a file or a non-empty
 * folder, and creates a missing folder (and missing parents). After unmounting it removes the
 * folders it created, so that nothing is left where cleartext was shown.
 *
 * <p>Not responsible for mounting.
 */
final class MountPoint {
    private static final Logger LOG = LoggerFactory.getLogger(MountPoint.class);
    private static final long STALE_WAIT_MILLIS = 5_000;
    static final long STALE_PROBE_MILLIS = 5_000;
    /**
     * How long a FUSE mount already at the folder has to answer the probe: {@link #STALE_PROBE_MILLIS};
     * a test of a mount that never answers shortens it instead of waiting it out.
     */
    static volatile long staleProbeMillis = STALE_PROBE_MILLIS;

    private final Path folder;
    private final List<Path> created;
    /** The mount point folder Coffer created has been removed once: if it is there again, a program made it. */
    private volatile boolean removedOnce;
    /** Warned about cleartext in it: once is enough (the forced unmount and the session's end both look). */
    private volatile boolean warned;

    private MountPoint(Path folder, List<Path> created) {
        this.folder = folder;
        this.created = created;
    }

    /** Makes {@code requested} ready to mount on, or says why it cannot be. */
    static MountPoint prepare(Path requested, Fusermount fusermount) throws IOException {
        return prepare(requested, fusermount, System.getProperty("os.name", ""));
    }

    /**
     * As {@link #prepare(Path, Fusermount)} on the system named {@code osName}. A drive letter such as
     * {@code Z:} is WinFsp's kind of mount point: on Windows it is passed on as is (WinFsp creates the
     * drive; there is no folder to check or create), elsewhere it is refused rather than taken as a
     * folder named "Z:" in the current folder.
     */
    static MountPoint prepare(Path requested, Fusermount fusermount, String osName) throws IOException {
        if (isDriveLetter(requested.toString())) {
            if (osName.toLowerCase(java.util.Locale.ROOT).startsWith("windows")) {
                return new MountPoint(requested, List.of());
            }
            throw new MountPointException("a drive letter such as " + requested
                    + " is a mount point on Windows only; give a folder to mount on");
        }
        Path folder = MountPaths.withRealParent(requested); // the mount table's name for it
        clearStale(folder, fusermount);
        if (Files.exists(folder, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(folder)) {
            Path real = folder.toRealPath();
            clearStale(real, fusermount);
            String named = real.equals(folder) ? folder.toString() : folder + " (a link to " + real + ")";
            if (!Files.isDirectory(real)) {
                throw new MountPointException("the mount point is not a folder: " + named);
            }
            if (!isEmpty(real)) {
                throw new MountPointException("the mount point is not empty: " + named
                        + " (mounting would hide its files; give an empty or missing folder)");
            }
            return new MountPoint(real, List.of());
        }
        List<Path> created = new ArrayList<>();
        Path missing = folder;
        while (missing.getParent() != null && !Files.exists(missing.getParent())) {
            missing = missing.getParent();
        }
        for (Path p = missing; ; p = p.resolve(folder.getName(p.getNameCount()))) {
            Files.createDirectory(p);
            created.add(p);
            if (p.equals(folder)) {
                break;
            }
        }
        return new MountPoint(folder, created);
    }

    Path folder() {
        return folder;
    }

    /** True for a Windows drive letter with its colon ({@code Z:}), optionally with a trailing backslash. */
    static boolean isDriveLetter(String mountPoint) {
        return mountPoint.matches("[A-Za-z]:\\\\?");
    }

    /** True if this mount point folder (or some of its parents) was created by {@link #prepare}. */
    boolean created() {
        return !created.isEmpty();
    }

    /**
     * Removes the folders {@link #prepare} created, innermost first; a folder that is not empty stays,
     * and so does one still mounted on (EBUSY). Safe to call more than once: after a forced unmount it
     * is called again once the unmount has waited for the session, because a program still writing by
     * path may have made the removed folder again, and an empty one then goes again; one with files in
     * it is named in a warning, once: they are cleartext on the local disk. Only empty folders are
     * ever removed ({@link EmptyFolders}): a file or link a program made at one of the names since
     * (cp report.pdf ~/mnt once the folder went) is the user's, kept and named in the warning.
     */
    void removeCreated() {
        for (int i = created.size() - 1; i >= 0; i--) {
            boolean mountPoint = i == created.size() - 1;
            switch (EmptyFolders.remove(created.get(i))) {
                case REMOVED, ABSENT -> {
                    if (mountPoint) {
                        removedOnce = true;
                    }
                }
                case NOT_EMPTY -> {
                    if (mountPoint) {
                        warnOnce(removedOnce
                                ? "the mount point {} was made again after the unmount by a program still writing "
                                        + "there, and holds files written since: they are NOT encrypted, so move them into "
                                        + "the vault or delete them"
                                // Only after a forced unmount: something wrote there by path while files were still open.
                                : "the mount point {} that Coffer created is not empty after the unmount; what was "
                                        + "written there is NOT encrypted, so move it into the vault or delete it");
                    }
                    return;
                }
                case NOT_A_FOLDER -> {
                    if (mountPoint && Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
                        warnOnce("a program wrote a file at {} after the unmount, where the mount point was: it is "
                                + "NOT encrypted, so move it into the vault or delete it");
                    }
                    return;
                }
                case FAILED -> {
                    LOG.debug("could not remove a mount point folder that Coffer created");
                    return;
                }
            }
        }
    }

    private void warnOnce(String message) {
        if (!warned) {
            warned = true;
            LOG.warn(message, folder);
        }
    }

    /** A fuse mount whose server is gone is unmounted lazily; any live mount is refused. */
    private static void clearStale(Path folder, Fusermount fusermount) throws IOException {
        Optional<MountTable.Entry> mount = MountTable.at(folder);
        if (mount.isEmpty()) {
            return;
        }
        if (!mount.get().type().startsWith("fuse") || !staleWithin(folder, staleProbeMillis)) {
            throw new MountPointException("something is already mounted at " + folder + " (" + mount.get().type()
                    + "); unmount it first or choose another folder");
        }
        LOG.warn("clearing a stale FUSE mount left by a process that ended without unmounting");
        fusermount.unmount(folder, true);
        long deadline = System.currentTimeMillis() + STALE_WAIT_MILLIS;
        while (MountTable.isMounted(folder)) {
            if (System.currentTimeMillis() > deadline) {
                throw new MountPointException("could not clear the stale mount at " + folder
                        + "; run: fusermount -u -z " + folder);
            }
            sleep();
        }
    }

    /**
     * {@link #isStale}, asked on a thread of its own: a FUSE mount whose process is stopped (Ctrl-Z,
     * SIGSTOP) never answers, and the probe would wait forever. Such a mount is neither stale nor
     * usable: refused, with how to detach it.
     */
    private static boolean staleWithin(Path folder, long millis) throws IOException {
        java.util.concurrent.CompletableFuture<Boolean> probe = new java.util.concurrent.CompletableFuture<>();
        Thread t = new Thread(() -> probe.complete(isStale(folder)), "coffer-mount-probe");
        t.setDaemon(true); // if the mount never answers, it stays blocked; it holds nothing
        t.start();
        try {
            return probe.get(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new MountPointException("the FUSE mount at " + folder + " does not answer (is its process stopped?); "
                    + "end that process or detach the mount: fusermount -u -z " + folder);
        } catch (java.util.concurrent.ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /**
     * A mount nobody serves any more ("Transport endpoint is not connected"). A stat alone is not
     * enough: for up to the attribute timeout (1 s) after the server died, the kernel answers a stat of
     * the mount's root from its cache. Opening the folder always asks the server.
     */
    static boolean isStale(Path folder) {
        try {
            Files.readAttributes(folder, java.nio.file.attribute.BasicFileAttributes.class);
            try (DirectoryStream<Path> s = Files.newDirectoryStream(folder)) {
                s.iterator().hasNext();
            }
            return false;
        } catch (FileSystemException e) {
            return notConnected(e);
        } catch (java.nio.file.DirectoryIteratorException e) {
            return e.getCause() instanceof FileSystemException f && notConnected(f);
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean notConnected(FileSystemException e) {
        String reason = String.valueOf(e.getReason());
        return reason.contains("not connected") || reason.contains("connection abort");
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            return !s.iterator().hasNext();
        }
    }

    private static void sleep() throws IOException {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
