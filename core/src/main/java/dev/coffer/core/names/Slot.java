package dev.coffer.core.names;

import java.nio.file.Path;

/** Where a child with a given cleartext name lives (or would live) in its parent's storage folder. */
public record Slot(CiphertextDirectory parent, String name, String encName, Path entryPath, boolean shortened) {

    /** The {@code <encName>.c9r} name, also the content of {@code name.c9s} for shortened entries. */
    public String c9rName() {
        return encName + LongNames.C9R;
    }

    /** The payload path this slot would have for an entry of {@code type}. */
    public Path payload(EntryType type) {
        return new Entry(parent, name, type, entryPath, shortened).payload();
    }
}
