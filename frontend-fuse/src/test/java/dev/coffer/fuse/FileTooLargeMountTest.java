package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.content.SectorLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A size or a write past the largest file the vault format stores (SectorLayout.maxCleartextSize,
 * below the kernel's own limit for FUSE, Long.MAX_VALUE) is refused with EFBIG ("File too large"),
 * as a local file system refuses one past its limit, and changes nothing.
 */
class FileTooLargeMountTest {
    @TempDir
    Path tmp;

    private VaultMount vault;
    private long max;

    @BeforeEach
    void mount() throws Exception {
        vault = new VaultMount(tmp);
        max = new SectorLayout(SectorLayout.HMAC_OVERHEAD).maxCleartextSize(); // VaultMountTest.FAST: XTS + HMAC
        Files.writeString(vault.mnt.resolve("f.txt"), "hello");
    }

    @AfterEach
    void unmount() throws Exception {
        vault.close();
    }

    @Test
    void truncatePastTheLimitIsFileTooLarge() throws Exception {
        Shell.Result r = Shell.run(vault.mnt, "truncate", "-s", Long.toString(max + 1), "f.txt");
        assertThat(r.exit()).as(r.output()).isNotZero();
        assertThat(r.output()).contains("File too large");
        assertThat(Files.readString(vault.mnt.resolve("f.txt"))).isEqualTo("hello");
    }

    @Test
    void aWritePastTheLimitIsFileTooLarge() throws Exception {
        Shell.Result r = Shell.run(vault.mnt, "dd", "if=/dev/zero", "of=f.txt", "bs=1", "count=1", "seek=" + max,
                "oflag=seek_bytes", "conv=notrunc");
        assertThat(r.exit()).as(r.output()).isNotZero();
        assertThat(r.output()).contains("File too large");
        assertThat(Files.readString(vault.mnt.resolve("f.txt"))).isEqualTo("hello");
    }
}
