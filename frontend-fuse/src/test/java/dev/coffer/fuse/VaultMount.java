package dev.coffer.fuse;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Test helper: a new vault in a temp folder, mounted. {@link #close} unmounts (through {@link Mounts},
 * which fails the test if anything stays mounted) and then locks the vault.
 */
final class VaultMount {
    private final Mounts mounts = new Mounts();
    final CofferFileSystem fs;
    final Path vault;
    final Path mnt;
    final FuseMount mount;

    VaultMount(Path tmp) throws IOException {
        this(tmp, MountOptions.defaults(false), FuseAdapter::new);
    }

    VaultMount(Path tmp, MountOptions options, FuseMount.AdapterFactory adapters) throws IOException {
        vault = tmp.resolve("vault");
        fs = CofferFileSystems.create(vault, "test passphrase".toCharArray(), VaultMountTest.FAST);
        mount = mounts.mount(fs.getPath("/"), tmp.resolve("mnt"), options, adapters);
        mnt = mount.mountPoint();
    }

    void close() throws IOException, InterruptedException {
        try {
            mounts.close();
        } finally {
            fs.close();
        }
    }
}
