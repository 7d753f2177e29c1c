package dev.coffer.fuse;

import java.io.IOException;

/**
 * An open of a name whose size the kernel may hold larger than the file's: a sync client shortened
 * the file behind the mount within the kernel's cache time ({@link KernelSizes}). {@link Errno}
 * answers ESTALE, on which Linux looks the name up again, which gives the kernel the file's size and
 * drops its pages past it, and retries the open once; that retry is let through. Carries no name.
 */
final class StaleSizeException extends IOException {
    private static final long serialVersionUID = 1L;

    StaleSizeException() {
        super("the kernel's size of the file may be stale; it is asked to look the name up again");
    }
}
