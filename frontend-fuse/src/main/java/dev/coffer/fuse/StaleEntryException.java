package dev.coffer.fuse;

import java.nio.file.NoSuchFileException;

/**
 * An open of a name the kernel still holds (it sends OPEN only for a name it looked up) whose file
 * is gone: a sync client deleted the ciphertext underneath within the entry timeout. {@link Errno}
 * answers ESTALE, on which the kernel looks the name up again and retries the open once: a
 * creating open ({@code echo x > name}) then makes the file, a plain one fails with ENOENT.
 * Carries no name (names stay out of exceptions and logs). Linux only ({@link #forOpenOf}).
 */
final class StaleEntryException extends NoSuchFileException {
    private static final long serialVersionUID = 1L;

    StaleEntryException(NoSuchFileException gone) {
        super(null, null, "the file of a name the kernel holds is gone");
        initCause(gone);
    }

    /**
     * What an open whose file is gone throws on the system {@code osName} names: this on Linux, whose
     * VFS retries an open answered ESTALE after a new lookup; {@code gone} (ENOENT) elsewhere: macFUSE
     * drops its cached node on ENOENT from an open but does nothing for ESTALE, and no other system
     * is known to retry.
     */
    static NoSuchFileException forOpenOf(NoSuchFileException gone, String osName) {
        return osName.startsWith("Linux") ? new StaleEntryException(gone) : gone;
    }
}
