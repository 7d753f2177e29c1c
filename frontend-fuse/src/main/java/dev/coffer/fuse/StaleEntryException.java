package dev.coffer.fuse;

import java.nio.file.NoSuchFileException;

/**
 * An open of a name the kernel still holds (it sends OPEN only for a name it looked up) whose file
 * is gone: a sync client deleted the ciphertext underneath within the entry timeout. {@link Errno}
 * answers ESTALE, on which the kernel looks the name up again and retries the open once: a
 * creating open ({@code echo x > name}) then makes the file, a plain one fails with ENOENT.
 * Carries no name (names stay out of exceptions and logs).
 */
final class StaleEntryException extends NoSuchFileException {
    private static final long serialVersionUID = 1L;

    StaleEntryException(NoSuchFileException gone) {
        super(null, null, "the file of a name the kernel holds is gone");
        initCause(gone);
    }
}
