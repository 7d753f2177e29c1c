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

    /**
     * Damages the vault in {@code vaultFolder} as a lost sync can: deletes every folder's pointer
     * ({@code NAME.c9r/dir.c9r}), leaving the folders' storage as orphans, dated two days back (core
     * leaves younger orphans alone, as a sync client may still be delivering their pointers); returns how many.
     */
    public static int orphanEveryFolder(Path vaultFolder) throws IOException {
        java.util.List<Path> pointers;
        try (var all = java.nio.file.Files.walk(vaultFolder.resolve("d"))) {
            pointers = all.filter(p -> p.getFileName().toString().equals("dir.c9r")).map(Path::getParent).toList();
        }
        for (Path pointer : pointers) {
            try (var inside = java.nio.file.Files.walk(pointer)) {
                for (Path p : inside.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    java.nio.file.Files.delete(p);
                }
            }
        }
        java.nio.file.attribute.FileTime twoDaysAgo = java.nio.file.attribute.FileTime.from(
                java.time.Instant.now().minus(java.time.Duration.ofDays(2)));
        try (var all = java.nio.file.Files.walk(vaultFolder.resolve("d"))) {
            for (Path p : all.toList()) {
                java.nio.file.Files.setLastModifiedTime(p, twoDaysAgo);
            }
        }
        return pointers.size();
    }

    public CreatedVault create(String name) throws IOException {
        return service.create(root, name, PASSPHRASE.toCharArray(), dev.coffer.core.vault.CipherCombo.SIV_XTSHMAC);
    }
}
