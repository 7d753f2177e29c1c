package dev.coffer.core.content;

import java.nio.file.FileSystemException;

/**
 * A file whose ciphertext cannot be read back: impossible length, header or unit that fails
 * authentication, or a short read. Names the cleartext path, never the ciphertext one; reported as EIO.
 */
public final class DamagedFileException extends FileSystemException {
    private static final long serialVersionUID = 1L;

    public DamagedFileException(String cleartextPath, String reason) {
        super(cleartextPath, null, reason);
    }
}
