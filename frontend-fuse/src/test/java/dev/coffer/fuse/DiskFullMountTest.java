package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.testing.TmpfsMount;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk under the ciphertext, for real: the vault lives on an 8 MiB tmpfs and is filled
 * through its FUSE mount. The writer gets ENOSPC ({@code dd} says "No space left on device", a Java
 * write throws), the file it was writing keeps what was written before the failing write, every
 * other file stays intact, the mount keeps working once space is freed, and the vault reopens with
 * every file readable.
 */
class DiskFullMountTest {
    private static final int OTHER_FILES = 4;

    @TempDir
    Path tmp;

    @Test
    @Timeout(180)
    void theWriterGetsEnospcAndNothingElseIsHurt() throws Exception {
        byte[] source = new byte[16 << 20];
        new Random(8).nextBytes(source);
        Path sourceFile = Files.write(tmp.resolve("source.bin"), source);
        try (TmpfsMount tmpfs = TmpfsMount.mount(tmp.resolve("small"), 8)) {
            Path vaultDir = tmpfs.dir().resolve("vault");
            Map<String, String> before;
            Mounts mounts = new Mounts();
            try (CofferFileSystem fs = CofferFileSystems.create(vaultDir, "test passphrase".toCharArray(), VaultMountTest.FAST)) {
                try {
                    Path mnt = mounts.mount(fs.getPath("/"), tmp.resolve("mnt")).mountPoint();
                    Files.createDirectory(mnt.resolve("docs"));
                    for (int i = 0; i < OTHER_FILES; i++) {
                        Files.write(mnt.resolve("docs/file" + i + ".bin"), Arrays.copyOfRange(source, i * 300_000, (i + 1) * 300_000 + i));
                    }
                    before = ConcurrentFioTest.digests(mnt);

                    Shell.Result dd = Shell.run(tmp, "dd", "if=" + sourceFile, "of=" + mnt.resolve("filler.bin"), "bs=64k", "conv=fsync");
                    assertThat(dd.exit()).as(dd.output()).isNotZero();
                    assertThat(dd.output()).contains("No space left on device");
                    byte[] filler = Files.readAllBytes(mnt.resolve("filler.bin"));
                    assertThat(filler.length).as("what dd wrote before the failing write").isPositive();
                    assertThat(Arrays.equals(filler, Arrays.copyOf(source, filler.length))).isTrue();

                    try (FileChannel ch = FileChannel.open(mnt.resolve("java.bin"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                        assertThatThrownBy(() -> {
                            for (int i = 0; i < 1000; i++) {
                                ch.write(ByteBuffer.wrap(source, 0, 1 << 16));
                            }
                            ch.force(true);
                        }).isInstanceOf(IOException.class).hasMessageContaining("No space left on device");
                    }

                    assertThat(ConcurrentFioTest.digests(mnt.resolve("docs")))
                            .isEqualTo(Map.copyOf(prefixRemoved(before, "docs/")));
                    Files.delete(mnt.resolve("filler.bin"));
                    Files.delete(mnt.resolve("java.bin"));
                    Files.write(mnt.resolve("after.bin"), Arrays.copyOf(source, 1 << 20));
                    assertThat(Files.readAllBytes(mnt.resolve("after.bin"))).isEqualTo(Arrays.copyOf(source, 1 << 20));
                } finally {
                    mounts.close();
                }
            }
            try (CofferFileSystem fs = CofferFileSystems.open(vaultDir, "test passphrase".toCharArray(), true)) {
                Map<String, String> reopened = ConcurrentFioTest.digests(fs.getPath("/"));
                assertThat(reopened).containsAllEntriesOf(before).containsKey("after.bin").hasSize(OTHER_FILES + 1);
            }
        }
    }

    private static Map<String, String> prefixRemoved(Map<String, String> m, String prefix) {
        Map<String, String> out = new java.util.TreeMap<>();
        m.forEach((k, v) -> out.put(k.substring(prefix.length()), v));
        return out;
    }
}
