package dev.coffer.core.names;

import java.nio.file.Path;

/**
 * One child of a cleartext folder as it is stored: its NFC cleartext name, type, and the on-disk
 * entry ({@code <encName>.c9r} file or folder, or {@code <s>.c9s/} folder).
 *
 * @param payloadCopy null for an entry stored under its own name; on a read-only mount, where
 *                    conflicts cannot be resolved on disk, the decorated payload file
 *                    ({@code dir (1).c9r}) that a {@code <N> (Conflict k)} entry stands for (spec 6)
 */
public record Entry(CiphertextDirectory parent, String name, EntryType type, Path entryPath, boolean shortened,
                    Path payloadCopy) {

    /** An entry stored under its own name (the usual case). */
    public Entry(CiphertextDirectory parent, String name, EntryType type, Path entryPath, boolean shortened) {
        this(parent, name, type, entryPath, shortened, null);
    }

    /** The file holding the payload: the file's content, {@code dir.c9r}, or {@code symlink.c9r}. */
    public Path payload() {
        if (payloadCopy != null) {
            return payloadCopy;
        }
        if (type == EntryType.FILE && !shortened) {
            return entryPath;
        }
        return entryPath.resolve(type.payloadName());
    }
}
