package dev.coffer.core.health;

/**
 * Every kind of problem the health check reports (issue 8, spec 4 to 6), with its severity and a
 * short title for people. Whether one finding can be repaired depends on the finding, not on its kind.
 */
public enum FindingKind {
    /** A storage folder that no folder pointer reaches (a crash while creating a folder, a lost {@code dir.c9r}). */
    ORPHAN_FOLDER(Severity.WARNING, "orphan storage folder"),
    /** A {@code dir.c9r} whose storage folder does not exist. */
    DANGLING_POINTER(Severity.WARNING, "folder pointer to a missing storage folder"),
    /** A {@code dir.c9r} that is not a 36-byte lower-case UUID. */
    DAMAGED_POINTER(Severity.ERROR, "damaged folder pointer"),
    /** A folder pointer whose ID is its own folder's or an ancestor's. */
    DIRECTORY_CYCLE(Severity.ERROR, "folder pointer loops back to an ancestor"),
    /** A folder pointer whose ID another pointer already uses. */
    DUPLICATE_DIRECTORY_ID(Severity.ERROR, "directory ID used twice"),
    /** A storage folder without {@code dirid.c9r}. */
    MISSING_DIRID(Severity.WARNING, "missing dirid.c9r"),
    /** A {@code dirid.c9r} that does not decrypt to its folder's ID. */
    DAMAGED_DIRID(Severity.WARNING, "damaged dirid.c9r"),
    /** An entry folder with no payload file, or with several. */
    INCOMPLETE_ENTRY(Severity.WARNING, "incomplete entry"),
    /** A {@code .c9s} folder without {@code name.c9s}. */
    MISSING_NAME_FILE(Severity.WARNING, "missing name.c9s"),
    /** A {@code name.c9s} that is not a valid long name (binary, too long, no {@code .c9r}). */
    DAMAGED_NAME_FILE(Severity.WARNING, "undecodable name.c9s"),
    /** A {@code name.c9s} that does not hash to its folder's name, and is no conflict copy. */
    MISMATCHED_NAME_FILE(Severity.WARNING, "name.c9s does not match its folder"),
    /** A sync-conflict copy (spec 6) that no writable listing has resolved yet. */
    UNRESOLVED_CONFLICT(Severity.WARNING, "unresolved sync conflict"),
    /** A file whose ciphertext length no file of the vault's content mode can have. */
    IMPOSSIBLE_SIZE(Severity.ERROR, "impossible ciphertext size"),
    /**
     * A SIV_XTSHMAC file whose end fails authentication while everything before it is authentic: a
     * write cut short by a crash (or the end was tampered with). Repairable: the readable part is kept.
     */
    INTERRUPTED_WRITE(Severity.ERROR, "interrupted write"),
    /** A file whose 48-byte header does not decrypt. */
    DAMAGED_HEADER(Severity.ERROR, "damaged file header"),
    /** A SIV_XTSHMAC file with units that fail authentication. */
    DAMAGED_CONTENT(Severity.ERROR, "content fails authentication"),
    /** A symlink whose target does not decrypt. */
    DAMAGED_SYMLINK(Severity.ERROR, "damaged symlink target"),
    /** A {@code .c9r}/{@code .c9s} name that does not decrypt under its folder's ID and is no conflict copy. */
    UNDECRYPTABLE_NAME(Severity.WARNING, "name does not decrypt"),
    /** A name that decrypts to something no reader may use (empty, {@code .}, {@code ..}, {@code /}, NUL). */
    UNSAFE_NAME(Severity.WARNING, "unsafe name"),
    /** A second entry with the same NFC name in one folder. */
    DUPLICATE_NAME(Severity.WARNING, "duplicate name"),
    /** A name stored in another form than NFC (written by another tool); found, but not as Coffer stores it. */
    NON_NFC_NAME(Severity.INFO, "name not stored in NFC"),
    /** A file that is no part of the format ({@code .DS_Store}, {@code desktop.ini}, ...). Never deleted. */
    FOREIGN_FILE(Severity.WARNING, "foreign file"),
    /** A left-over temporary file of an interrupted atomic write. */
    TEMPORARY_FILE(Severity.INFO, "left-over temporary file"),
    /** A file or folder the check could not read (an I/O error, a payload that is no regular file). */
    UNREADABLE(Severity.ERROR, "cannot be read"),
    /** A sync-conflict copy of {@code vault.coffer} or a masterkey file in the vault root. */
    ROOT_FILE_COPY(Severity.WARNING, "conflict copy of a vault root file");

    private final Severity severity;
    private final String title;

    FindingKind(Severity severity, String title) {
        this.severity = severity;
        this.title = title;
    }

    public Severity severity() {
        return severity;
    }

    public String title() {
        return title;
    }
}
