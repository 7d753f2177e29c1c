package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file of 4 GiB + 1 byte through the server and a real vault, streamed both ways (generated and
 * checked on the fly): PUT with a Content-Length beyond 32 bits, then a full GET and a range read
 * across the 4 GiB boundary. The vault lives in /dev/shm when it has three times that free, else
 * in the temp folder; less than 4.5 GiB free there is a failure.
 */
class BigFileTest {
    private static final long SIZE = (4L << 30) + 1;

    @TempDir
    Path tmp;

    @Test
    void putAndGetOverFourGiB() throws Exception {
        Path base = memoryBacked().orElse(tmp);
        long free = Files.getFileStore(base).getUsableSpace();
        assertThat(free).as("free space in %s for a 4 GiB vault file", base).isGreaterThan(SIZE + (512L << 20));
        Path dir = Files.createTempDirectory(base, "coffer-bigfile");
        try (ServedVault served = new ServedVault(dir)) {
            DavClient dav = new DavClient(served.url());
            HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.fromPublisher(
                    HttpRequest.BodyPublishers.ofInputStream(() -> new PatternStream(SIZE)), SIZE);
            HttpResponse<byte[]> put = dav.send("PUT", "/big.bin", body);
            assertThat(put.statusCode()).isEqualTo(201);
            assertThat(Files.size(served.root.resolve("big.bin"))).isEqualTo(SIZE);

            HttpResponse<InputStream> get = dav.send(dav.request("/big.bin").GET(), HttpResponse.BodyHandlers.ofInputStream());
            assertThat(get.statusCode()).isEqualTo(200);
            assertThat(get.headers().firstValueAsLong("Content-Length")).hasValue(SIZE);
            try (InputStream in = get.body()) {
                assertThat(PatternStream.verify(in, SIZE)).as("offset of the first wrong byte").isEqualTo(-1);
            }

            long from = (4L << 30) - 4096;
            HttpResponse<byte[]> tail = dav.send("GET", "/big.bin", (String) null, "Range", "bytes=" + from + "-");
            assertThat(tail.statusCode()).isEqualTo(206);
            assertThat(tail.body()).hasSize(4097);
            for (int i = 0; i < tail.body().length; i++) {
                assertThat(tail.body()[i]).isEqualTo(PatternStream.at(from + i));
            }
        } finally {
            deleteTree(dir);
        }
    }

    /** /dev/shm when it has room to spare (twice as fast as a disk here), so the test stays quick. */
    private static Optional<Path> memoryBacked() throws IOException {
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm) && Files.getFileStore(shm).getUsableSpace() > 3 * SIZE) {
            return Optional.of(shm);
        }
        return Optional.empty();
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
