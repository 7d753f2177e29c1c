package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.testing.TmpfsMount;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PUT without a length (chunked) that fills the disk under the vault while it is written: the
 * free-space check before writing cannot catch it, the write fails with ENOSPC inside the vault,
 * and the client gets 507 Insufficient Storage (not 500), the partial upload removed.
 */
class DiskFullPutTest {
    @TempDir
    Path tmp;

    @Test
    @Timeout(120)
    void aChunkedPutThatFillsTheDiskGets507AndLeavesNothing() throws Exception {
        try (TmpfsMount small = TmpfsMount.mount(tmp.resolve("small"), 8);
                ServedVault v = new ServedVault(small.dir())) {
            DavClient dav = new DavClient(v.url());
            assertThat(dav.send("PUT", "/kept.txt", "kept").statusCode()).isEqualTo(201);
            byte[] big = new byte[16 << 20];

            // Sent at a pace a real network or a busy machine has: much of it is still on its way when
            // the disk fills, and the answer must still reach the client (it once got "Broken pipe").
            HttpResponse<byte[]> put = dav.send("PUT", "/big.bin",
                    HttpRequest.BodyPublishers.ofInputStream(() -> new PacedStream(big)));

            assertThat(put.statusCode()).isEqualTo(507);
            try (Stream<Path> left = Files.list(v.root)) {
                assertThat(left.map(p -> p.getFileName().toString()).filter(n -> !n.equals(Staging.FOLDER))).containsExactly("kept.txt");
            }
            ServerLeftovers.assertNoneIn(v.root);
            assertThat(Files.readString(v.root.resolve("kept.txt"))).isEqualTo("kept");
        }
    }

    /** {@code bytes}, read with a pause of a millisecond after each 64 KiB. */
    private static final class PacedStream extends java.io.ByteArrayInputStream {
        PacedStream(byte[] bytes) {
            super(bytes);
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return super.read(b, off, Math.min(len, 64 * 1024));
        }
    }

    /** An overwriting COPY that runs out of space leaves the old target as it was, and no part of the copy. */
    @Test
    @Timeout(120)
    void aCopyOverAFileThatFillsTheDiskKeepsTheOldFile() throws Exception {
        try (TmpfsMount small = TmpfsMount.mount(tmp.resolve("small"), 8);
                ServedVault v = new ServedVault(small.dir())) {
            DavClient dav = new DavClient(v.url());
            byte[] old = new byte[500_000];
            new java.util.Random(1).nextBytes(old);
            Files.write(v.root.resolve("dst.bin"), old);
            Files.createDirectory(v.root.resolve("folder"));
            Files.write(v.root.resolve("folder/in.bin"), old);
            byte[] big = new byte[5 << 20];
            new java.util.Random(2).nextBytes(big);
            Files.write(v.root.resolve("big.bin"), big);
            Files.createDirectory(v.root.resolve("bigfolder"));
            Files.write(v.root.resolve("bigfolder/a.bin"), java.util.Arrays.copyOf(big, 1 << 20));
            try (var ch = java.nio.channels.FileChannel.open(v.root.resolve("bigfolder/b.bin"),
                    java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE)) {
                ch.write(java.nio.ByteBuffer.wrap(big, 0, 1 << 20)); // more than is left once a.bin is copied
            } catch (java.io.IOException full) {
                // the disk is as full as it gets
            }

            assertThat(dav.send("COPY", "/big.bin", (String) null, "Destination", dav.url("/dst.bin")).statusCode()).isEqualTo(507);
            assertThat(Files.readAllBytes(v.root.resolve("dst.bin"))).isEqualTo(old);
            int folderCopy = dav.send("COPY", "/bigfolder", (String) null, "Destination", dav.url("/folder")).statusCode();
            assertThat(folderCopy).isIn(507, 201, 204); // 2xx only if the copy fitted after all
            if (folderCopy == 507) {
                assertThat(Files.readAllBytes(v.root.resolve("folder/in.bin"))).isEqualTo(old);
                try (Stream<Path> in = Files.list(v.root.resolve("folder"))) {
                    assertThat(in.map(p -> p.getFileName().toString())).containsExactly("in.bin");
                }
            }
            try (Stream<Path> top = Files.list(v.root)) {
                assertThat(top.map(p -> p.getFileName().toString()).filter(n -> !n.equals(Staging.FOLDER)))
                        .containsExactlyInAnyOrder("big.bin", "bigfolder", "dst.bin", "folder");
            }
            ServerLeftovers.assertNoneIn(v.root);
        }
    }
}
