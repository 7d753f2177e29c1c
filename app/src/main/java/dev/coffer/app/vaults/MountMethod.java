package dev.coffer.app.vaults;

/**
 * How an unlocked vault is shown to the person: a FUSE drive, a WebDAV drive, or AUTO (FUSE where it
 * is installed, otherwise WebDAV).
 *
 * <p>Not responsible for mounting ({@link Mounters} picks the {@link Mounter} for a method).
 */
public enum MountMethod {
    AUTO,
    FUSE,
    WEBDAV
}
