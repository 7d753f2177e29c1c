package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streaming reads on a real mount of a real vault: files written into the vault (not through the
 * mount, so the kernel has none of their pages cached) read back byte for byte by ordinary tools,
 * with the requests answered by read streams, one file at a time and several at once.
 */
class StreamingReadMountTest {
    private static final int MIB = 1 << 20;

    @TempDir
    Path tmp;

    private VaultMount vm;
    private FuseAdapter adapter;

    @BeforeEach
    void mount() throws Exception {
        vm = new VaultMount(tmp, MountOptions.defaults(false), (root, uid, gid) -> adapter = new FuseAdapter(root, uid, gid));
    }

    @AfterEach
    void unmount() throws Exception {
        vm.close();
    }

    @Test
    void aBigFileReadsBackByteForByteThroughStreams() throws Exception {
        String expected = writeIntoVault("big.bin", 48 * MIB, 1);
        String sum = Shell.ok(vm.mnt, "sha256sum", "big.bin");
        assertThat(sum).startsWith(expected);
        assertThat(adapter.streamedReads()).as("requests answered by the stream").isGreaterThan(100);
    }

    @Test
    void twoFilesReadAtOnceEachGetTheirOwnBytes() throws Exception {
        String a = writeIntoVault("a.bin", 24 * MIB, 2);
        String b = writeIntoVault("b.bin", 24 * MIB + 12345, 3);
        CompletableFuture<String> sumA = CompletableFuture.supplyAsync(() -> sha256sum("a.bin"));
        CompletableFuture<String> sumB = CompletableFuture.supplyAsync(() -> sha256sum("b.bin"));
        assertThat(sumA.get(120, TimeUnit.SECONDS)).startsWith(a);
        assertThat(sumB.get(120, TimeUnit.SECONDS)).startsWith(b);
        assertThat(adapter.streamedReads()).isGreaterThan(100);
        Mounts.awaitReleased(adapter);
        assertThat(adapter.openHandles()).as("every handle released, its stream with it").isZero();
    }

    @Test
    void aFileCopiedWithinTheMountWhileItIsReadStaysIntact() throws Exception {
        String expected = writeIntoVault("src.bin", 32 * MIB, 4);
        // cp reads src while writing dst through the same mount, so its reads and changes interleave
        // (StreamingReadsTest holds what a change does to a stream); the copy must be exact.
        Shell.ok(vm.mnt, "cp", "src.bin", "dst.bin");
        assertThat(Shell.ok(vm.mnt, "sha256sum", "dst.bin")).startsWith(expected);
        assertThat(Shell.ok(vm.mnt, "sha256sum", "src.bin")).startsWith(expected);
    }

    private String sha256sum(String name) {
        try {
            return Shell.ok(vm.mnt, "sha256sum", name);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@code size} random bytes into the vault itself; returns their SHA-256 in hex. */
    private String writeIntoVault(String name, int size, long seed) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        Random r = new Random(seed);
        byte[] chunk = new byte[MIB];
        try (OutputStream out = Files.newOutputStream(vm.fs.getPath("/" + name))) {
            for (int done = 0; done < size; ) {
                int n = Math.min(chunk.length, size - done);
                r.nextBytes(chunk);
                out.write(chunk, 0, n);
                sha.update(chunk, 0, n);
                done += n;
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}
