package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.testing.TmpfsMount;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vaults whose ciphertext lives on a limited file system, each made real: a name-length-limited
 * store (a FUSE mount refusing names over 100 bytes with ENAMETOOLONG), a case-insensitive one
 * (an in-memory tree with macOS rules, mounted with FUSE), and a read-only one (a tmpfs remounted
 * read-only), which mounts read-only: writes through the mount fail with EROFS. Each limit is
 * detected when the vault is opened and reported through {@code CofferFileSystem.storeLimits()}.
 */
class StoreLimitsMountTest {
    @TempDir
    Path tmp;

    private final Mounts mounts = new Mounts();

    @AfterEach
    void unmount() throws Exception {
        mounts.close();
    }

    @Test
    void aNameLengthLimitedStoreIsDetectedAndOnlyLongNamesFail() throws IOException {
        Path backing = Files.createDirectories(tmp.resolve("backing"));
        Path limited = mounts.mount(backing, tmp.resolve("limited"), MountOptions.defaults(false),
                (root, uid, gid) -> new NameLimitAdapter(root, uid, gid, 100)).mountPoint();
        try (CofferFileSystem fs = CofferFileSystems.create(limited.resolve("vault"), "p".toCharArray(), VaultMountTest.FAST)) {
            assertThat(fs.storeLimits().nameLengthLimit()).isEqualTo(OptionalInt.of(100));
            assertThat(fs.storeLimits().warnings()).singleElement().asString()
                    .contains("accepts names of at most 100 characters", "up to 220");
            Files.writeString(fs.getPath("/short.txt"), "fits");
            assertThat(Files.readString(fs.getPath("/short.txt"))).isEqualTo("fits");
            // A 60-byte name is an 84 + 4 character encrypted name: too long for this store.
            assertThatThrownBy(() -> Files.writeString(fs.getPath("/" + "n".repeat(60)), "does not fit"))
                    .isInstanceOf(FileSystemException.class).hasMessageContaining("name too long");
        }
    }

    @Test
    void aCaseInsensitiveStoreIsDetected() throws IOException {
        try (FileSystem macLike = Jimfs.newFileSystem(Configuration.osX())) {
            Path served = Files.createDirectories(macLike.getPath("/served"));
            Path mnt = mounts.mount(served, tmp.resolve("insensitive")).mountPoint();
            Files.writeString(mnt.resolve("Probe"), "x");
            assertThat(Files.exists(mnt.resolve("PROBE"))).as("the mount really ignores case").isTrue();
            Files.delete(mnt.resolve("Probe"));
            try (CofferFileSystem fs = CofferFileSystems.create(mnt.resolve("vault"), "p".toCharArray(), VaultMountTest.FAST)) {
                assertThat(fs.storeLimits().caseInsensitive()).isTrue();
                assertThat(fs.storeLimits().nameLengthLimit()).isEmpty();
                assertThat(fs.storeLimits().warnings()).singleElement().asString().contains("ignores the case of names");
            }
        }
    }

    @Test
    void aReadOnlyCiphertextFolderMountsReadOnly() throws Exception {
        try (TmpfsMount tmpfs = TmpfsMount.mount(tmp.resolve("ro"), 8)) {
            Path vaultDir = tmpfs.dir().resolve("vault");
            try (CofferFileSystem fs = CofferFileSystems.create(vaultDir, "p".toCharArray(), VaultMountTest.FAST)) {
                Files.writeString(fs.getPath("/kept.txt"), "kept");
            }
            tmpfs.remountReadOnly();
            try (CofferFileSystem fs = CofferFileSystems.open(vaultDir, "p".toCharArray(), false)) {
                assertThat(fs.isReadOnly()).isTrue();
                assertThat(fs.storeLimits().warnings()).containsExactly(
                        "the vault folder cannot be written (the file system is mounted read-only): opened read-only");
                // As coffer mount does: a read-only file system is mounted read-only.
                Path mnt = mounts.mount(fs.getPath("/"), tmp.resolve("mnt"), MountOptions.defaults(fs.isReadOnly())).mountPoint();
                assertThat(Files.readString(mnt.resolve("kept.txt"))).isEqualTo("kept");
                Shell.Result touch = Shell.run(tmp, "touch", mnt.resolve("new.txt").toString());
                assertThat(touch.exit()).isNotZero();
                assertThat(touch.output()).contains("Read-only file system");
                mounts.close();
            }
            tmpfs.remountWritable();
        }
    }
}
