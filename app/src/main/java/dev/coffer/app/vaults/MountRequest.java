package dev.coffer.app.vaults;

import java.nio.file.Path;

/**
 * What a {@link Mounter} is asked to do for one vault.
 *
 * @param volumeName the name the drive shows (the vault's name)
 * @param mountPoint where a FUSE drive appears (a missing or empty folder); WebDAV ignores it
 * @param readOnly   refuse every change
 * @param webDavPort the loopback port for WebDAV (0: any free port); FUSE ignores it
 */
public record MountRequest(String volumeName, Path mountPoint, boolean readOnly, int webDavPort) {}
