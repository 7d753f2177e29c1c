package dev.coffer.fuse;

import jnr.constants.platform.OpenFlags;

/**
 * The bits of open(2)'s flags that the mount reads from {@code fuse_file_info.flags} (open, create,
 * write), as the system's C library defines them, which FUSE passes through: they differ between
 * systems. On macOS Linux's O_TRUNC bit (01000) is O_CREAT, Linux's O_EXCL bit (0200) is O_FSYNC
 * and Linux's O_APPEND bit (02000) is O_TRUNC: with Linux's values macFUSE's exclusive create
 * (O_CREAT|O_RDWR|O_EXCL) would open and empty an existing file. The running system's values come from jnr-constants;
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
        OpenFlags[] used = {OpenFlags.O_RDONLY, OpenFlags.O_ACCMODE, OpenFlags.O_WRONLY, OpenFlags.O_RDWR, OpenFlags.O_EXCL,
            OpenFlags.O_TRUNC, OpenFlags.O_APPEND};
        for (OpenFlags flag : used) {
            if (!flag.defined()) {
                return LINUX;
            }
        }
        return plausible(new OpenFlagBits(OpenFlags.O_ACCMODE.intValue(), OpenFlags.O_WRONLY.intValue(), OpenFlags.O_RDWR.intValue(),
                OpenFlags.O_EXCL.intValue(), OpenFlags.O_TRUNC.intValue(), OpenFlags.O_APPEND.intValue()), OpenFlags.O_RDONLY.intValue());
    }

    /**
     * {@code bits}, or Linux's if they are not a real system's: every system has O_RDONLY 0, O_WRONLY 1,
     * O_RDWR 2 and O_ACCMODE 3, and jnr-constants answers a system it has no table for with a made-up
     * one that defines everything with other values.
     */
    static OpenFlagBits plausible(OpenFlagBits bits, int readOnly) {
        boolean real = readOnly == 0 && bits.accessMode() == 3 && bits.writeOnly() == 1 && bits.readWrite() == 2;
        return real ? bits : LINUX;
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
