package dev.coffer.fuse;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps a second mount off a folder while a first one is being checked and mounted there, in this
 * process and in others. libfuse mounts on any empty folder, a live FUSE mount of an empty tree (a
 * new vault) included: two mounts started at once on one folder both passed {@link MountPoint}'s
 * checks, and the second stacked on the first, hiding it. Held from the checks until the mount is
 * in the kernel's mount table, where the next mount's checks see it.
 *
 * <p>Keyed by the mount point's path with its parents resolved. Across processes: a POSIX lock on a file named after the
 * path's SHA-256 in a folder of the user's own (0700): {@code coffer-UID} in the temp folder, the
 * same for every process of the user whatever its environment ({@link #foldersFor}). Within this
 * process: a set of the paths held, checked first, because the JDK refuses a second lock of one
 * file in a process, and closing any other descriptor of the file would drop the process's POSIX
 * lock: only the holder opens the file.
 *
 * <p>A lock file is removed when its lock is released (before session 36 they stayed, hundreds
 * after a test run). Removing a file another process has opened but not yet locked would let it
 * lock a file no longer at that name while a third makes and locks a new one: both would hold "the"
 * lock. So opening and locking a lock file, and removing and releasing one, each happen holding the
 * folder's own lock ({@link #FOLDER_LOCK}, which stays): a lock taken under it is on the file at the
 * name, and only its holder removes that file. (The JDK cannot tell which file an open channel is,
 * so an acquirer could not check that afterwards.)
 */
final class MountPointLock implements AutoCloseable {
    private static final Set<Path> HELD_HERE = ConcurrentHashMap.newKeySet();
    /** The file in the lock folder whose lock is held while a lock file is opened and locked, or removed and released. */
    static final String FOLDER_LOCK = "folder.lock";
    /** How long a process waits for another to finish opening or removing a lock file (normally microseconds). */
    private static final long FOLDER_LOCK_WAIT_MILLIS = 10_000;
    /** In this process, one at a time holds the folder's lock: closing its file anywhere else would drop it. */
    private static final Object FOLDER_LOCK_HERE = new Object();
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FOLDER =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FILE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private final Path key;
    private final Path path;
    private final FileChannel file;
    private boolean released; // guarded by this

    private MountPointLock(Path key, Path path, FileChannel file) {
        this.key = key;
        this.path = path;
        this.file = file;
    }

    /**
     * Locks {@code requested} for mounting, by its path with its parents resolved ({@link
     * MountPaths#withRealParent}: the name itself is not followed, since a stat of a mount whose
     * server is stopped never returns), with the lock files in {@link #folderFor(long) the user's
     * folder}; {@link MountPointException} if another mount holds it. A name that is a link to the
     * folder is locked again by the folder's real path once known ({@link #acquire(Path, Path, long)}).
     */
    static MountPointLock acquire(Path requested, long uid) throws IOException {
        return acquire(requested, foldersFor(uid), uid);
    }

    /** As above, with the lock files in {@code lockFolder} (made if missing) of user {@code uid}. */
    static MountPointLock acquire(Path requested, Path lockFolder, long uid) throws IOException {
        return acquire(requested, List.of(lockFolder), uid);
    }

    /**
     * As above, with the lock files in the first of {@code lockFolders} that is (or can be made) a
     * folder of user {@code uid} alone: another user may have made the first one in a shared temp
     * folder (a link, or a folder of theirs), which would otherwise refuse every mount of this user.
     */
    static MountPointLock acquire(Path requested, List<Path> lockFolders, long uid) throws IOException {
        Path key = MountPaths.withRealParent(requested);
        if (!HELD_HERE.add(key)) {
            throw busy(key);
        }
        try {
            Path folder = firstOwnFolder(lockFolders, uid);
            Path path = fileFor(key, folder);
            FileChannel channel = underFolderLock(folder, () -> openLocked(path));
            if (channel == null) {
                throw busy(key);
            }
            return new MountPointLock(key, path, channel);
        } catch (IOException | RuntimeException e) {
            HELD_HERE.remove(key);
            throw e;
        }
    }

    /** The lock file at {@code path} (made if missing), open and locked; null if another process holds it. */
    private static FileChannel openLocked(Path path) throws IOException {
        FileChannel channel = FileChannel.open(path, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS), fileAttributes(OWNER_ONLY_FILE));
        try {
            if (channel.tryLock() != null) {
                return channel;
            }
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        channel.close();
        return null;
    }

    /**
     * Releases the lock and removes its file; safe to call more than once. Should the folder's lock
     * not be had (or the removal fail), the file stays, as before session 36, and the lock is released
     * all the same: a leftover file is harmless, and a mount just made must not fail for it.
     */
    @Override
    public synchronized void close() {
        if (released) {
            return;
        }
        released = true;
        try {
            underFolderLock(path.getParent(), () -> {
                try {
                    Files.deleteIfExists(path); // still held: nobody else has this file open and locked
                } finally {
                    file.close(); // ends the POSIX lock
                }
                return null;
            });
        } catch (IOException e) {
            // kept: see above
        } finally {
            try {
                file.close(); // if the folder's lock was not had
            } catch (IOException e) {
                // the POSIX lock ends with the descriptor whatever close reports
            } finally {
                HELD_HERE.remove(key);
            }
        }
    }

    /** One step on the lock files of {@code folder}. */
    @FunctionalInterface
    private interface FolderStep<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code step} holding the lock of {@code folder}'s {@link #FOLDER_LOCK} file, in this process
     * and against others; another process holds it for microseconds, so after a while (a process
     * stopped there) this gives up with an IOException.
     */
    private static <T> T underFolderLock(Path folder, FolderStep<T> step) throws IOException {
        synchronized (FOLDER_LOCK_HERE) {
            try (FileChannel channel = FileChannel.open(folder.resolve(FOLDER_LOCK), Set.of(StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), fileAttributes(OWNER_ONLY_FILE))) {
                long deadline = System.nanoTime() + FOLDER_LOCK_WAIT_MILLIS * 1_000_000;
                while (channel.tryLock() == null) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new IOException("another process holds " + folder.resolve(FOLDER_LOCK) + " for longer than "
                                + FOLDER_LOCK_WAIT_MILLIS / 1000 + " s");
                    }
                    sleepBriefly();
                }
                return step.run();
            } // closing ends the folder's lock
        }
    }

    private static void sleepBriefly() throws IOException {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting for the mount point locks' folder");
        }
    }

    /** The folder of user {@code uid}'s lock files, unless another user took its name: {@code coffer-UID} in the temp folder. */
    static Path folderFor(long uid) {
        return foldersFor(uid).get(0);
    }

    /**
     * Where user {@code uid}'s lock files may go, in order: {@code coffer-UID} in the temp folder;
     * {@code .cache/coffer-mount-locks} in the home folder, for when another user has taken that name
     * in a shared temp folder first. Neither depends on the environment: a desktop process
     * ({@code XDG_RUNTIME_DIR} set) and an ssh or cron one (unset) must lock in one place, and before
     * session 34 the first locked in {@code $XDG_RUNTIME_DIR/coffer}, the second in the temp folder,
     * and both could mount on one folder. (The JDK takes both from the system, not from {@code
     * TMPDIR} or {@code HOME}; root run with a user's environment, sudo -E, uses root's own.)
     */
    static List<Path> foldersFor(long uid) {
        return List.of(Path.of(System.getProperty("java.io.tmpdir"), "coffer-" + uid),
                Path.of(System.getProperty("user.home"), ".cache", "coffer-mount-locks"));
    }

    private static Path firstOwnFolder(List<Path> folders, long uid) throws IOException {
        IOException first = null;
        for (Path folder : folders) {
            try {
                return ownFolder(folder, uid);
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        throw first != null ? first : new IOException("no folder for the mount point locks");
    }

    /** The lock file of mount point {@code key} (a real path) in {@code folder}. */
    static Path fileFor(Path key, Path folder) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(key.toString().getBytes(StandardCharsets.UTF_8));
            return folder.resolve("mount-" + HexFormat.of().formatHex(hash) + ".lock");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /**
     * {@code folder}, made if missing, and refused unless it is a folder (not a link) of user
     * {@code uid} that nobody else may enter: in a shared temp folder another user could have made
     * it first, to hold the locks or to point a lock file elsewhere.
     */
    private static Path ownFolder(Path folder, long uid) throws IOException {
        if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            try {
                if (folder.getParent() != null) {
                    Files.createDirectories(folder.getParent()); // ~/.cache for the last choice
                }
                Files.createDirectory(folder, fileAttributes(OWNER_ONLY_FOLDER));
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // made meanwhile: checked below like any existing one
            }
        }
        if (!posix()) {
            return folder;
        }
        boolean ours = Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)
                && ((Number) Files.getAttribute(folder, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue() == uid;
        if (!ours) {
            throw new IOException("cannot use " + folder + " for the mount point locks: it is not a folder of this user");
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(folder, LinkOption.NOFOLLOW_LINKS);
        if (!perms.equals(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.OWNER_EXECUTE))) {
            Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
        }
        return folder;
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("unix");
    }

    private static FileAttribute<?>[] fileAttributes(FileAttribute<?> posixOnly) {
        return posix() ? new FileAttribute<?>[] {posixOnly} : new FileAttribute<?>[0];
    }

    private static MountPointException busy(Path folder) {
        return new MountPointException("another mount is being started at " + folder
                + " (by this or another Coffer); if it is already mounted, unmount it first or choose another folder");
    }
}
