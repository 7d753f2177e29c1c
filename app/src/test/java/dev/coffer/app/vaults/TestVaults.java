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

    /**
     * A program's open file that a sync client then deleted underneath, as core's conflict copies
     * need: {@code cleartextPath} (its folders made first) created in the unlocked vault at
     * {@code cleartextRoot}, opened for writing, {@code written} written, then its ciphertext file in
     * {@code vaultFolder} deleted. Returns the program's channel, still open: its close (or locking
     * the vault) makes the conflict copy.
     */
    public static java.nio.channels.FileChannel orphanedWriter(Path cleartextRoot, Path vaultFolder, String cleartextPath,
            String written) throws IOException {
        Path file = cleartextRoot.resolve(cleartextPath.substring(1));
        java.nio.file.Files.createDirectories(file.getParent());
        java.util.Set<Path> before = ciphertextFiles(vaultFolder);
        java.nio.file.Files.writeString(file, "");
        java.util.Set<Path> payload = ciphertextFiles(vaultFolder);
        payload.removeAll(before);
        if (payload.size() != 1) {
            throw new AssertionError("expected the new file's one ciphertext file, found " + payload);
        }
        java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE);
        ch.write(java.nio.ByteBuffer.wrap(written.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        java.nio.file.Files.delete(payload.iterator().next()); // another device deleted it
        return ch;
    }

    private static java.util.Set<Path> ciphertextFiles(Path vaultFolder) throws IOException {
        try (var all = java.nio.file.Files.walk(vaultFolder.resolve("d"))) {
            return all.filter(java.nio.file.Files::isRegularFile).collect(java.util.stream.Collectors.toCollection(
                    java.util.HashSet::new));
        }
    }

    public CreatedVault create(String name) throws IOException {
        return service.create(root, name, PASSPHRASE.toCharArray(), dev.coffer.core.vault.CipherCombo.SIV_XTSHMAC);
    }
}
