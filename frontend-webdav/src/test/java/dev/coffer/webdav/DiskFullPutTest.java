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

            HttpResponse<byte[]> put = dav.send("PUT", "/big.bin",
                    HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big)));

            assertThat(put.statusCode()).isEqualTo(507);
            try (Stream<Path> left = Files.list(v.root)) {
                assertThat(left.map(p -> p.getFileName().toString())).containsExactly("kept.txt");
            }
            assertThat(Files.readString(v.root.resolve("kept.txt"))).isEqualTo("kept");
        }
    }
}
