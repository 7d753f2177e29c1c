package dev.coffer.app.vaults;

import java.net.URI;

/**
 * One mounted vault as the person sees it: where it is, how to open it in the file manager, and how
 * to take it away. Made by a {@link Mounter}.
 *
 * <p>Not responsible for the vault's file system (the caller closes it after {@link #unmount}).
 */
public interface Drive {
    /** Where the drive is, shown in the UI: a folder for FUSE, a URL for WebDAV. */
    String location();

    /** What the file manager opens for "Reveal drive". */
    URI revealTarget();

    /** The method that made this drive. */
    MountMethod method();

    /**
     * Unmounts. Without {@code force}, a drive in use throws {@link VaultException} with
     * {@link Problem#DRIVE_BUSY} and stays mounted; with it, open files start failing.
     */
    void unmount(boolean force) throws java.io.IOException;

    /** False once the drive has gone away, whoever unmounted it. */
    boolean isMounted();
}
