package dev.coffer.app.vaults;

/**
 * What went wrong with a vault operation, as the person needs to hear it; each has a message in
 * the UI's resource bundles (key {@code problem.NAME}). The technical detail (a path, the package
 * to install) travels beside it in {@link VaultException}.
 */
public enum Problem {
    /** The vault folder is gone (moved, renamed, a drive not plugged in). */
    FOLDER_MISSING,
    /** The folder holds no vault.coffer. */
    NOT_A_VAULT,
    /** vault.coffer or masterkey.coffer is damaged or refused. */
    DAMAGED_CONFIGURATION,
    /** The passphrase does not open the vault. */
    WRONG_PASSPHRASE,
    /** The passphrase opens only a sync-conflict copy of the masterkey file (changed on another device). */
    PASSPHRASE_OF_CONFLICT_COPY,
    /** The recovery key is not this vault's, or mistyped. */
    WRONG_RECOVERY_KEY,
    /** The mount point is not an empty folder, or another mount uses it. */
    MOUNT_POINT_BUSY,
    /** FUSE is missing (and no WebDAV fallback could be used). */
    FUSE_MISSING,
    /** The chosen mount method is not part of this build. */
    METHOD_UNAVAILABLE,
    /** The WebDAV port is taken by another program. */
    PORT_IN_USE,
    /** Programs still have files open in the drive. */
    DRIVE_BUSY,
    /** A folder for a new vault is not empty, or already holds a vault. */
    FOLDER_NOT_EMPTY,
    /** The operation needs the vault locked (the health check). */
    VAULT_UNLOCKED,
    /** {@code coffer check --repair}, or the health tab, is repairing the vault. */
    IN_REPAIR,
    /** A repair found the vault open in another process ({@code coffer mount}, another Coffer). */
    IN_USE_ELSEWHERE,
    /** An unlock found the vault open in another process: two writers would lose each other's changes. */
    OPEN_ELSEWHERE,
    /** A repair's new check plans other repairs than the ones confirmed. */
    HEALTH_CHANGED,
    /** Anything else: the detail says what. */
    OTHER
}
