package dev.coffer.fuse;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.Set;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.Timespec;

/**
 * Fills a {@code struct stat} from NIO attributes: type and permission bits, size, blocks, times,
 * and the mounting user as owner. Folders report one link ("unknown" to find and fts, which then
 * never skip a folder), files one link (hard links are not supported). The change time is the
 * modification time: NIO has no portable ctime.
 *
 * <p>Not responsible for reading the attributes (the callers choose follow or not).
 */
final class StatFiller {
    static final int DEFAULT_FILE_MODE = 0644;
    static final int DEFAULT_DIR_MODE = 0755;
    private static final int LINK_MODE = 0777;
    private static final int BLOCK_SIZE = 4096;

    private StatFiller() {}

    /**
     * Fills {@code stat} for {@code attrs}; {@code path} is read again only for an entry that is
     * neither file, folder nor symlink (a FIFO or socket in a plain folder) to learn its type.
     */
    static void fill(FileStat stat, BasicFileAttributes attrs, Path path, Backing backing) {
        int type;
        int perms;
        if (attrs.isDirectory()) {
            type = FileStat.S_IFDIR;
            perms = permissions(attrs, DEFAULT_DIR_MODE);
        } else if (attrs.isSymbolicLink()) {
            type = FileStat.S_IFLNK;
            perms = LINK_MODE;
        } else if (attrs.isRegularFile()) {
            type = FileStat.S_IFREG;
            perms = permissions(attrs, DEFAULT_FILE_MODE);
        } else {
            type = otherType(path);
            perms = permissions(attrs, DEFAULT_FILE_MODE);
        }
        fill(stat, type | perms, attrs.size(), attrs.lastModifiedTime(), attrs.lastAccessTime(), backing);
    }

    /** Fills {@code stat} from plain values (an open file whose path is gone). */
    static void fill(FileStat stat, int mode, long size, FileTime modified, FileTime accessed, Backing backing) {
        stat.st_mode.set(mode);
        stat.st_nlink.set(1);
        stat.st_uid.set(backing.uid());
        stat.st_gid.set(backing.gid());
        stat.st_blksize.set(BLOCK_SIZE);
        size(stat, size);
        set(stat.st_mtim, modified);
        set(stat.st_atim, accessed == null ? modified : accessed);
        set(stat.st_ctim, modified);
    }

    /** Sets the size (and the blocks that follow from it) of a filled {@code stat}. */
    static void size(FileStat stat, long size) {
        stat.st_size.set(size);
        stat.st_blocks.set((size + 511) / 512);
    }

    /** The permission bits of {@code perms}, as in {@code st_mode & 0777}. */
    static int mode(Set<PosixFilePermission> perms) {
        int mode = 0;
        for (PosixFilePermission p : perms) {
            mode |= 1 << (8 - p.ordinal()); // OWNER_READ is 0400 ... OTHERS_EXECUTE is 0001
        }
        return mode;
    }

    private static int permissions(BasicFileAttributes attrs, int fallback) {
        return attrs instanceof PosixFileAttributes p ? mode(p.permissions()) : fallback;
    }

    private static int otherType(Path path) {
        try {
            Object mode = Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            return ((Integer) mode) & FileStat.S_IFMT;
        } catch (Exception e) { // no "unix" view on this backing: show it as a file
            return FileStat.S_IFREG;
        }
    }

    private static void set(Timespec ts, FileTime time) {
        if (time == null) {
            ts.tv_sec.set(0);
            ts.tv_nsec.set(0);
            return;
        }
        Instant i = time.toInstant();
        ts.tv_sec.set(i.getEpochSecond());
        ts.tv_nsec.set(i.getNano());
    }
}
