package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A LOCK and a write that puts something in place do not interleave: a write checks locks again
 * under the commit lock right before its rename, and a LOCK is granted under that lock, so a lock
 * granted while a write runs is either seen by the write (423) or granted after its rename, never
 * overridden by it. A request is held at a {@link WriteMethods.Stage} through the test hook.
 */
class CommitLockTest {
    @TempDir
    Path tmp;

    private ServedVault served;
    private DavClient dav;
    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @BeforeEach
    void serve() throws IOException {
        served = new ServedVault(tmp);
        dav = new DavClient(served.url());
    }

    @AfterEach
    void stop() throws IOException {
        WriteMethods.pauseForTests = stage -> {};
        release.countDown();
        pool.shutdownNow();
        served.close();
    }

    /** Before, a MOVE checked the source's locks only before the commit lock: a LOCK taken in between was moved away. */
    @Test
    @Timeout(60)
    void aLockTakenOnTheSourceAfterAMovesFirstCheckStopsTheMove() throws Exception {
        Files.writeString(served.root.resolve("src.txt"), "src");
        holdAt(WriteMethods.Stage.CHECKED);
        Future<HttpResponse<byte[]>> move = pool.submit(() -> dav.send("MOVE", "/src.txt", (String) null, "Destination", dav.url("/dst.txt")));
        assertThat(arrived.await(20, TimeUnit.SECONDS)).as("the MOVE reached its hold").isTrue();

        HttpResponse<byte[]> lock = dav.send("LOCK", "/src.txt", DavClient.lockBody("exclusive"), "Timeout", "Second-60");
        assertThat(lock.statusCode()).isEqualTo(200);
        release.countDown();

        assertThat(move.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(423);
        assertThat(Files.readString(served.root.resolve("src.txt"))).isEqualTo("src");
        assertThat(served.root.resolve("dst.txt")).doesNotExist();
        assertThat(DavClient.text(dav.send("PROPFIND", "/src.txt", (String) null, "Depth", "0"))).contains("opaquelocktoken:");
    }

    /**
     * A depth-infinity LOCK of a folder while an upload into it is being put in place waits for the
     * rename (before, it was granted between the upload's last check and its rename, which then
     * replaced a member of a locked folder without the token).
     */
    @Test
    @Timeout(60)
    void aLockOfAFolderWaitsForAnUploadIntoItThatIsBeingPutInPlace() throws Exception {
        Files.createDirectory(served.root.resolve("folder"));
        Files.writeString(served.root.resolve("folder/doc.txt"), "old");
        holdAt(WriteMethods.Stage.COMMITTING);
        Future<HttpResponse<byte[]>> put = pool.submit(() -> dav.send("PUT", "/folder/doc.txt", "new"));
        assertThat(arrived.await(20, TimeUnit.SECONDS)).as("the PUT reached its hold").isTrue();

        Future<HttpResponse<byte[]>> lock = pool.submit(() -> dav.send("LOCK", "/folder", DavClient.lockBody("exclusive"),
                "Depth", "infinity", "Timeout", "Second-60"));
        Thread.sleep(1_000);
        assertThat(lock.isDone()).as("the LOCK was granted while the upload was being put in place").isFalse();
        release.countDown();

        assertThat(put.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(204);
        assertThat(lock.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(Files.readString(served.root.resolve("folder/doc.txt"))).isEqualTo("new");
        assertThat(dav.send("PUT", "/folder/doc.txt", "without the token").statusCode()).isEqualTo(423);
    }

    /** Holds the first request that reaches {@code stage} until {@link #release} opens. */
    private void holdAt(WriteMethods.Stage stage) {
        WriteMethods.pauseForTests = s -> {
            if (s == stage && arrived.getCount() > 0) {
                arrived.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
