package dev.coffer.fuse;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The mount could not be unmounted because programs still use it (an open file, or a shell whose
 * working folder is inside). It stays mounted and keeps working; unmount again after closing them,
 * or force it.
 */
public final class MountBusyException extends IOException {
    private static final long serialVersionUID = 1L;

    public MountBusyException(Path mountPoint) {
        super(mountPoint + " is busy: a program has a file open in it, or a shell's working folder is inside it. "
                + "Close those programs and unmount again, or force the unmount (open files then fail)");
    }
}
