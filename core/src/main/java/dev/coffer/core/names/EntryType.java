package dev.coffer.core.names;

/** What a vault entry is, read from its payload file (spec 4). */
public enum EntryType {
    FILE("contents.c9r"),
    DIRECTORY("dir.c9r"),
    SYMLINK("symlink.c9r");

    private final String payloadName;

    EntryType(String payloadName) {
        this.payloadName = payloadName;
    }

    /** The payload file inside an entry folder (for FILE: inside a {@code .c9s} folder only). */
    public String payloadName() {
        return payloadName;
    }
}
