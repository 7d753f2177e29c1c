package dev.coffer.core.names;

import java.nio.file.Path;

/**
 * One child of a cleartext folder as it is stored: its NFC cleartext name, type, and the on-disk
 * entry ({@code <encName>.c9r} file or folder, or {@code <s>.c9s/} folder).
 */
public record Entry(CiphertextDirectory parent, String name, EntryType type, Path entryPath, boolean shortened) {

    /** The file holding the payload: the file's content, {@code dir.c9r}, or {@code symlink.c9r}. */
    public Path payload() {
        if (type == EntryType.FILE && !shortened) {
            return entryPath;
        }
        return entryPath.resolve(type.payloadName());
    }
}
