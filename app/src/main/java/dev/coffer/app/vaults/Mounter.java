package dev.coffer.app.vaults;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A way to show an unlocked vault's cleartext root as a drive (FUSE, WebDAV). Implementations
 * translate their frontend's exceptions into {@link VaultException}s.
 *
 * <p>Not responsible for the vault (it gets a plain {@link Path}) or for choosing the method
 * ({@link Mounters}).
 */
public interface Mounter {
    MountMethod method();

    /**
     * Fails with {@link Problem#FUSE_MISSING} (or another problem) if this method cannot work on this
     * machine, without mounting anything: checked before the passphrase is asked for.
     */
    void checkAvailable() throws VaultException;

    /** Mounts {@code cleartextRoot}; returns once the drive can be used. */
    Drive mount(Path cleartextRoot, MountRequest request) throws IOException;
}
