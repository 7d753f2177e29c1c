package dev.coffer.app.vaults;

import java.io.IOException;
import java.nio.file.Path;

/** Builds a {@link VaultService} over a temp folder with fast scrypt and a fake FUSE. */
public final class TestVaults {
    /** The smallest scrypt cost the format allows: creating and unlocking take milliseconds. */
    public static final int FAST_SCRYPT = 1 << 14;
    public static final String PASSPHRASE = "correct horse battery staple";

    public final Path root;
    public final FakeMounter fuse = new FakeMounter(MountMethod.FUSE);
    public final TestClock clock = new TestClock();
    public final VaultService service;

    public TestVaults(Path root) throws IOException {
        this.root = root;
        this.service = open();
    }

    /** Another service on the same config folder: what the app sees after a restart. */
    public VaultService open() throws IOException {
        return new VaultService(new SettingsStore(root.resolve("config")), new Mounters().with(fuse), clock,
                root.resolve("mnt"), FAST_SCRYPT);
    }

    public CreatedVault create(String name) throws IOException {
        return service.create(root, name, PASSPHRASE.toCharArray(), dev.coffer.core.vault.CipherCombo.SIV_XTSHMAC);
    }
}
