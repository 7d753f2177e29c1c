package dev.coffer.app.vaults;

import dev.coffer.fuse.FuseMount;
import dev.coffer.fuse.FuseUnavailableException;
import dev.coffer.fuse.MountBusyException;
import dev.coffer.fuse.MountOptions;
import dev.coffer.fuse.MountPointException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

/**
 * Mounts with FUSE through {@code frontend-fuse}'s {@link FuseMount}, and turns its exceptions into
 * {@link VaultException}s: FUSE missing (with what to install), mount point busy, drive busy.
 *
 * <p>Not responsible for the mount's lifecycle details (FuseMount) or for the vault.
 */
public final class FuseMounter implements Mounter {
    @Override
    public MountMethod method() {
        return MountMethod.FUSE;
    }

    @Override
    public void checkAvailable() throws VaultException {
        try {
            FuseMount.checkAvailable();
        } catch (FuseUnavailableException e) {
            throw new VaultException(Problem.FUSE_MISSING, e.getMessage(), e);
        }
    }

    @Override
    public Drive mount(Path cleartextRoot, MountRequest request) throws IOException {
        checkAvailable();
        try {
            FuseMount mount = FuseMount.mount(cleartextRoot, request.mountPoint(), MountOptions.defaults(request.readOnly()));
            return new FuseDrive(mount);
        } catch (MountPointException e) {
            throw new VaultException(Problem.MOUNT_POINT_BUSY, e.getMessage(), e);
        }
    }

    /** A FUSE mount as a {@link Drive}. */
    private record FuseDrive(FuseMount mount) implements Drive {
        @Override
        public String location() {
            return mount.mountPoint().toString();
        }

        @Override
        public URI revealTarget() {
            return mount.mountPoint().toUri();
        }

        @Override
        public MountMethod method() {
            return MountMethod.FUSE;
        }

        @Override
        public void unmount(boolean force) throws IOException {
            try {
                mount.unmount(force);
            } catch (MountBusyException e) {
                throw new VaultException(Problem.DRIVE_BUSY, mount.mountPoint().toString(), e);
            }
        }

        @Override
        public boolean isMounted() {
            return mount.isMounted();
        }
    }
}
