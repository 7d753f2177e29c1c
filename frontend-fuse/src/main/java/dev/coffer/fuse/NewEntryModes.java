package dev.coffer.fuse;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Gives a new file or folder the permission bits the kernel asked for. Where the backing keeps
 * permissions the bits go with the creation ({@code posix:permissions}), which spares a second
 * resolution of the path and a chmod per entry; the store then removes this process's umask from
 * them, as open(2) and mkdir(2) do, and only when that umask may have removed one of the asked-for
 * bits is the chmod still made.
 */
final class NewEntryModes {
    private static final FileAttribute<?>[] NONE = new FileAttribute<?>[0];

    private final Backing backing;
    private final int umask;

    NewEntryModes(Backing backing) {
        this(backing, ProcessUmask.current());
    }

    /** @param umask the bits the store removes from a new file's permissions ({@link ProcessUmask#UNKNOWN}: any) */
    NewEntryModes(Backing backing, int umask) {
        this.backing = backing;
        this.umask = umask;
    }

    /** The attributes to create a file or folder with for {@code mode}. */
    FileAttribute<?>[] atCreation(long mode) {
        return backing.posix() ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(AttributeOps.permissions(mode))} : NONE;
    }

    /** After the entry at {@code p} was created with {@link #atCreation}: sets what the umask may have removed. */
    void afterCreation(Path p, long mode) throws IOException {
        if ((mode & umask & 0777) != 0) {
            AttributeOps.applyMode(backing, p, mode);
        }
    }
}
