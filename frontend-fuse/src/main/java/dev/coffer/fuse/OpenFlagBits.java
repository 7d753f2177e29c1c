package dev.coffer.fuse;

import jnr.constants.platform.OpenFlags;

/**
 * The bits of open(2)'s flags that the mount reads from {@code fuse_file_info.flags} (open, create,
 * write), as the system's C library defines them, which FUSE passes through: they differ between
 * systems. Linux's O_APPEND (02000) is macOS's O_TRUNC, and Linux's O_TRUNC (01000) macOS's
 * O_CREAT, so Linux's values on a Mac would truncate a file opened with O_CREAT and move writes of
 * a truncating handle to the file's end. The running system's values come from jnr-constants;
 * Linux's where it knows none.
 *
 * @param accessMode O_ACCMODE, which holds one of O_RDONLY (0), {@code writeOnly} and {@code readWrite}
 */
record OpenFlagBits(int accessMode, int writeOnly, int readWrite, int exclusive, int truncate, int append) {
    /** Linux's values (x86-64 and AArch64 alike), which the kernel's FUSE protocol carries. */
    static final OpenFlagBits LINUX = new OpenFlagBits(03, 01, 02, 0200, 01000, 02000);
    /** The running system's values. */
    static final OpenFlagBits HOST = host();

    private static OpenFlagBits host() {
        OpenFlags[] used = {OpenFlags.O_ACCMODE, OpenFlags.O_WRONLY, OpenFlags.O_RDWR, OpenFlags.O_EXCL,
            OpenFlags.O_TRUNC, OpenFlags.O_APPEND};
        for (OpenFlags flag : used) {
            if (!flag.defined()) {
                return LINUX;
            }
        }
        return new OpenFlagBits(OpenFlags.O_ACCMODE.intValue(), OpenFlags.O_WRONLY.intValue(), OpenFlags.O_RDWR.intValue(),
                OpenFlags.O_EXCL.intValue(), OpenFlags.O_TRUNC.intValue(), OpenFlags.O_APPEND.intValue());
    }

    boolean writesOnly(int flags) {
        return (flags & accessMode) == writeOnly;
    }

    boolean readsAndWrites(int flags) {
        return (flags & accessMode) == readWrite;
    }

    boolean exclusive(int flags) {
        return (flags & exclusive) != 0;
    }

    boolean truncates(int flags) {
        return (flags & truncate) != 0;
    }

    boolean appends(int flags) {
        return (flags & append) != 0;
    }
}
