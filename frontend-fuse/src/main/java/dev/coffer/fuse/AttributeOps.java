package dev.coffer.fuse;

import java.io.IOException;
import java.nio.file.AccessMode;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.Statvfs;
import ru.serce.jnrfuse.struct.Timespec;

/**
 * Attributes: getattr, chmod (stored on the backing entry, which for a vault is the ciphertext
 * file), chown (only to the owner that is already reported), utimens (with UTIME_NOW and
 * UTIME_OMIT in Linux's and macOS's values: {@link UtimeRequest}), access, and statfs from the backing {@link FileStore}. Bits that NIO cannot store
 * (setuid, setgid, sticky) are dropped.
 *
 * <p>Not responsible for contents or names.
 */
final class AttributeOps {
    private static final long NO_ID = 0xFFFF_FFFFL; // (uid_t) -1: leave unchanged
    private static final int R_OK = 4;
    private static final int W_OK = 2;
    private static final int X_OK = 1;
    private static final int FRAGMENT = 4096;
    private static final int NAME_MAX = 255;
    private static final PosixFilePermission[] BITS = PosixFilePermission.values(); // OWNER_READ (0400) first

    private final Backing backing;

    AttributeOps(Backing backing) {
        this.backing = backing;
    }

    void getattr(String path, FileStat stat) throws IOException {
        if (KeptNames.isKept(path)) {
            backing.kept().lookedUp(path); // libfuse looks for a free kept name before it moves a file there
            if (!backing.unlinkedFolderReady()) {
                throw new NoSuchFileException(path); // none can exist yet (and no lookup may race the folder's creation)
            }
        }
        Path p = backing.resolve(path);
        StatFiller.fill(stat, backing.attributes(p), p, backing);
    }

    void chmod(String path, long mode) throws IOException {
        Path p = backing.resolve(path);
        if (!backing.posix()) {
            throw new UnsupportedOperationException("permissions cannot be stored here");
        }
        try {
            Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).setPermissions(permissions(mode));
        } catch (FileSystemException e) {
            // Asked only after a failure, so that a chmod (three per file in tar xf) stats nothing
            // first. A symlink's own mode is always 0777: a vault ignores the change, a plain
            // folder refuses it, and Linux never asks (chmod follows links).
            if (!isSymbolicLink(p)) {
                throw e;
            }
        }
    }

    private boolean isSymbolicLink(Path p) {
        try {
            return backing.attributes(p).isSymbolicLink();
        } catch (IOException e) {
            return false; // the first failure is the one to report
        }
    }

    /** Only "no change" is possible: every entry belongs to the mounting user. */
    void chown(long uid, long gid) throws IOException {
        boolean sameUser = uid == NO_ID || uid == -1 || uid == backing.uid();
        boolean sameGroup = gid == NO_ID || gid == -1 || gid == backing.gid();
        if (!sameUser || !sameGroup) {
            throw new java.nio.file.FileSystemException(null, null, "Operation not permitted");
        }
    }

    void utimens(String path, Timespec access, Timespec modified) throws IOException {
        FileTime now = FileTime.fromMillis(System.currentTimeMillis());
        FileTime a = time(access, now);
        FileTime m = time(modified, now);
        if (a == null && m == null) {
            return;
        }
        Files.getFileAttributeView(backing.resolve(path), BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .setTimes(m, a, null);
    }

    void access(String path, int mask) throws IOException {
        List<AccessMode> modes = new ArrayList<>();
        if ((mask & R_OK) != 0) {
            modes.add(AccessMode.READ);
        }
        if ((mask & W_OK) != 0) {
            modes.add(AccessMode.WRITE);
        }
        if ((mask & X_OK) != 0) {
            modes.add(AccessMode.EXECUTE);
        }
        Path p = backing.resolve(path);
        p.getFileSystem().provider().checkAccess(p, modes.toArray(new AccessMode[0]));
    }

    void statfs(Statvfs st) throws IOException {
        FileStore store = Files.getFileStore(backing.root());
        st.f_bsize.set(FRAGMENT);
        st.f_frsize.set(FRAGMENT);
        st.f_blocks.set(store.getTotalSpace() / FRAGMENT);
        st.f_bfree.set(store.getUnallocatedSpace() / FRAGMENT);
        st.f_bavail.set(store.getUsableSpace() / FRAGMENT);
        st.f_namemax.set(NAME_MAX);
    }

    /** Gives a new entry the permission bits of {@code mode} (where the backing stores permissions). */
    static void applyMode(Backing backing, Path p, long mode) throws IOException {
        if (backing.posix()) {
            Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).setPermissions(permissions(mode));
        }
    }

    static Set<PosixFilePermission> permissions(long mode) {
        Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
        for (int i = 0; i < BITS.length; i++) {
            if ((mode & (1L << (8 - i))) != 0) {
                perms.add(BITS[i]);
            }
        }
        return perms;
    }

    private static FileTime time(Timespec ts, FileTime now) {
        long nsec = ts.tv_nsec.longValue();
        return switch (UtimeRequest.of(nsec)) {
            case OMIT -> null;
            case NOW -> now;
            case SET -> FileTime.from(Instant.ofEpochSecond(ts.tv_sec.get(), nsec));
        };
    }
}
