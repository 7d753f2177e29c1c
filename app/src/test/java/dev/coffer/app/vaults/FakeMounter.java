package dev.coffer.app.vaults;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Mounter} for ViewModel and service tests: "mounts" by remembering the cleartext root,
 * can pretend FUSE is missing, and its drives can pretend to be busy. The real FUSE mount is tested
 * end to end in {@code GuiEndToEndIT}.
 */
public final class FakeMounter implements Mounter {
    public final List<FakeDrive> drives = new ArrayList<>();
    private final MountMethod method;
    public VaultException unavailable;

    public FakeMounter(MountMethod method) {
        this.method = method;
    }

    @Override
    public MountMethod method() {
        return method;
    }

    @Override
    public void checkAvailable() throws VaultException {
        if (unavailable != null) {
            throw unavailable;
        }
    }

    @Override
    public Drive mount(Path cleartextRoot, MountRequest request) throws IOException {
        checkAvailable();
        FakeDrive d = new FakeDrive(cleartextRoot, request, method);
        drives.add(d);
        return d;
    }

    /** A drive whose "files" are the vault's cleartext root itself. */
    public static final class FakeDrive implements Drive {
        public final Path cleartextRoot;
        public final MountRequest request;
        private final MountMethod method;
        public boolean busy;
        public boolean mounted = true;

        FakeDrive(Path cleartextRoot, MountRequest request, MountMethod method) {
            this.cleartextRoot = cleartextRoot;
            this.request = request;
            this.method = method;
        }

        @Override
        public String location() {
            return request.mountPoint().toString();
        }

        @Override
        public URI revealTarget() {
            return request.mountPoint().toUri();
        }

        @Override
        public MountMethod method() {
            return method;
        }

        @Override
        public void unmount(boolean force) throws IOException {
            if (busy && !force) {
                throw new VaultException(Problem.DRIVE_BUSY, location());
            }
            mounted = false;
        }

        @Override
        public boolean isMounted() {
            return mounted;
        }

        public void write(String cleartextName, String content) throws IOException {
            Files.writeString(cleartextRoot.resolve(cleartextName), content);
        }
    }
}
