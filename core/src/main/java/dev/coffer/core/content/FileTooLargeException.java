package dev.coffer.core.content;

import java.nio.file.FileSystemException;

/**
 * A write or size change would make a file larger than its format can store
 * ({@link SectorLayout#maxCleartextSize()}), or its end would pass {@code Long.MAX_VALUE}: the
 * {@code EFBIG} ("File too large") the default provider gets from the OS at its limit.
 */
public final class FileTooLargeException extends FileSystemException {
    private static final long serialVersionUID = 1L;

    public FileTooLargeException(String cleartextPath) {
        super(cleartextPath, null, "File too large");
    }
}
