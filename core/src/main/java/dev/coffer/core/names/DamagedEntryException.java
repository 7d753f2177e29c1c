package dev.coffer.core.names;

import java.nio.file.FileSystemException;

/** An entry that exists on disk but cannot be used: incomplete, invalid pointer, or looping ID (spec 4). Names the cleartext path. */
public final class DamagedEntryException extends FileSystemException {
    private static final long serialVersionUID = 1L;

    public DamagedEntryException(String cleartextPath, String reason) {
        super(cleartextPath, null, reason);
    }
}
