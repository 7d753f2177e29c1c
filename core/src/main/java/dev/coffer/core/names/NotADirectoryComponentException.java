package dev.coffer.core.names;

import java.nio.file.FileSystemException;

/**
 * A path goes through something that is not a folder ({@code /file.txt/child}): ENOTDIR. A plain
 * {@link FileSystemException} to callers, as the default provider reports it; a type of its own so
 * that frontends can map it to ENOTDIR without reading the message.
 */
public final class NotADirectoryComponentException extends FileSystemException {
    private static final long serialVersionUID = 1L;

    public NotADirectoryComponentException(String cleartextPath) {
        super(cleartextPath, null, "Not a directory");
    }
}
