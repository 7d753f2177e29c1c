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
 * under the commit lock right before its rename (or its MKCOL, or its PROPPATCH's write), and a LOCK
 * is granted under that lock, so a lock granted while a write runs is either seen by the write (423)
 * or granted after its change, never overridden by it. A PROPPATCH also checks there that its
 * resource is still there: one deleted or moved meanwhile gets 404, and no properties are written
 * for its vanished name. A request is held at a {@link WriteMethods.Stage} through the test hook.
 */
class CommitLockTest {
    @TempDir
    Path tmp;

    private ServedVault served;
    private DavClient dav;
    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile Thread held;
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
        awaitABlockedThreadBehindTheHeldRequest();
        assertThat(lock.isDone()).as("the LOCK was granted while the upload was being put in place").isFalse();
        release.countDown();

        assertThat(put.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(204);
        assertThat(lock.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(Files.readString(served.root.resolve("folder/doc.txt"))).isEqualTo("new");
        assertThat(dav.send("PUT", "/folder/doc.txt", "without the token").statusCode()).isEqualTo(423);
    }

    /** Before, a MKCOL checked its folder's locks only once, without the commit lock: a LOCK of the folder taken then was overridden. */
    @Test
    @Timeout(60)
    void aLockOfTheFolderTakenAfterAMkcolsFirstCheckStopsTheMkcol() throws Exception {
        Files.createDirectory(served.root.resolve("folder"));
        holdAt(WriteMethods.Stage.CHECKED);
        Future<HttpResponse<byte[]>> mkcol = pool.submit(() -> dav.send("MKCOL", "/folder/sub", (String) null));
        assertThat(arrived.await(20, TimeUnit.SECONDS)).as("the MKCOL reached its hold").isTrue();

        HttpResponse<byte[]> lock = dav.send("LOCK", "/folder", DavClient.lockBody("exclusive"), "Depth", "0", "Timeout", "Second-60");
        assertThat(lock.statusCode()).isEqualTo(200);
        release.countDown();

        assertThat(mkcol.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(423);
        assertThat(served.root.resolve("folder/sub")).doesNotExist();
    }

    /** A LOCK of a folder while a MKCOL in it is making its collection waits until the collection is made. */
    @Test
    @Timeout(60)
    void aLockOfAFolderWaitsForAMkcolInItThatIsMakingItsCollection() throws Exception {
        Files.createDirectory(served.root.resolve("folder"));
        holdAt(WriteMethods.Stage.COMMITTING);
        Future<HttpResponse<byte[]>> mkcol = pool.submit(() -> dav.send("MKCOL", "/folder/sub", (String) null));
        assertThat(arrived.await(20, TimeUnit.SECONDS)).as("the MKCOL reached its hold").isTrue();

        Future<HttpResponse<byte[]>> lock = pool.submit(() -> dav.send("LOCK", "/folder", DavClient.lockBody("exclusive"),
                "Depth", "0", "Timeout", "Second-60"));
        awaitABlockedThreadBehindTheHeldRequest();
        assertThat(lock.isDone()).as("the LOCK was granted while the MKCOL was making its collection").isFalse();
        release.countDown();

        assertThat(mkcol.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
        assertThat(lock.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(served.root.resolve("folder/sub")).isDirectory();
        assertThat(dav.send("MKCOL", "/folder/other", (String) null).statusCode()).isEqualTo(423);
    }

    /** Before, a PROPPATCH checked locks only before it read its body, without the commit lock: a LOCK taken then was overridden. */
    @Test
    @Timeout(60)
    void aLockTakenAfterAProppatchsFirstCheckStopsTheProppatch() throws Exception {
        Files.writeString(served.root.resolve("doc.txt"), "doc");
        holdAt(WriteMethods.Stage.CHECKED);
        Future<HttpResponse<byte[]>> patch = pool.submit(() -> dav.send("PROPPATCH", "/doc.txt", setProperty("late")));
        assertThat(arrived.await(20, TimeUnit.SECONDS)).as("the PROPPATCH reached its hold").isTrue();

        HttpResponse<byte[]> lock = dav.send("LOCK", "/doc.txt", DavClient.lockBody("exclusive"), "Timeout", "Second-60");
        assertThat(lock.statusCode()).isEqualTo(200);
        release.countDown();

        assertThat(patch.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(423);
        assertThat(served.root.resolve(".coffer-dav-props.doc.txt")).doesNotExist();
        assertThat(property("/doc.txt")).doesNotContain("late");
    }

    /**
     * Before, a PROPPATCH whose resource was deleted after its checks wrote its properties all the
     * same, for a name that no longer existed: a file later uploaded under that name had them.
     */
    @Test
    @Timeout(60)
    void aProppatchOfAResourceDeletedAfterItsFirstCheckLeavesNoPropertiesForTheName() throws Exception {
        Files.writeString(served.root.resolve("doc.txt"), "doc");
        holdAt(WriteMethods.Stage.CHECKED);
        Future<HttpResponse<byte[]>> patch = pool.submit(() -> dav.send("PROPPATCH", "/doc.txt", setProperty("stale")));
        assertThat(arrived.await(20, TimeUnit.SECONDS)).as("the PROPPATCH reached its hold").isTrue();

        assertThat(dav.send("DELETE", "/doc.txt", (String) null).statusCode()).isEqualTo(204);
        release.countDown();

        assertThat(patch.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(404);
        assertThat(served.root.resolve(".coffer-dav-props.doc.txt")).doesNotExist();
        assertThat(dav.send("PUT", "/doc.txt", "a new file").statusCode()).isEqualTo(201);
        assertThat(property("/doc.txt")).doesNotContain("stale");
    }

    /** The same for a MOVE: the moved resource keeps what it had, and nothing is left for its old name. */
    @Test
    @Timeout(60)
    void aProppatchOfAResourceMovedAfterItsFirstCheckLeavesNoPropertiesForTheOldName() throws Exception {
        Files.writeString(served.root.resolve("doc.txt"), "doc");
        holdAt(WriteMethods.Stage.CHECKED);
        Future<HttpResponse<byte[]>> patch = pool.submit(() -> dav.send("PROPPATCH", "/doc.txt", setProperty("stale")));
        assertThat(arrived.await(20, TimeUnit.SECONDS)).as("the PROPPATCH reached its hold").isTrue();

        assertThat(dav.send("MOVE", "/doc.txt", (String) null, "Destination", dav.url("/moved.txt")).statusCode()).isEqualTo(201);
        release.countDown();

        assertThat(patch.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(404);
        assertThat(served.root.resolve(".coffer-dav-props.doc.txt")).doesNotExist();
        assertThat(property("/moved.txt")).doesNotContain("stale");
        assertThat(dav.send("PUT", "/doc.txt", "a new file").statusCode()).isEqualTo(201);
        assertThat(property("/doc.txt")).doesNotContain("stale");
    }

    /** A DELETE while a PROPPATCH writes waits for the write, and then takes the new properties away with the resource. */
    @Test
    @Timeout(60)
    void aDeleteWaitsForAProppatchThatIsWritingAndTakesItsPropertiesAlong() throws Exception {
        Files.writeString(served.root.resolve("doc.txt"), "doc");
        holdAt(WriteMethods.Stage.COMMITTING);
        Future<HttpResponse<byte[]>> patch = pool.submit(() -> dav.send("PROPPATCH", "/doc.txt", setProperty("stale")));
        assertThat(arrived.await(20, TimeUnit.SECONDS)).as("the PROPPATCH reached its hold").isTrue();

        Future<HttpResponse<byte[]>> delete = pool.submit(() -> dav.send("DELETE", "/doc.txt", (String) null));
        awaitABlockedThreadBehindTheHeldRequest();
        assertThat(delete.isDone()).as("the DELETE ran while the PROPPATCH was writing").isFalse();
        release.countDown();

        assertThat(patch.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(207);
        assertThat(delete.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(204);
        assertThat(served.root.resolve(".coffer-dav-props.doc.txt")).doesNotExist();
        assertThat(dav.send("PUT", "/doc.txt", "a new file").statusCode()).isEqualTo(201);
        assertThat(property("/doc.txt")).doesNotContain("stale");
    }

    private static String setProperty(String value) {
        return "<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\"><D:set><D:prop><k xmlns=\"urn:k\">" + value
                + "</k></D:prop></D:set></D:propertyupdate>";
    }

    /** The PROPFIND answer for the dead property {@code urn:k k} of {@code path}. */
    private String property(String path) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = dav.send("PROPFIND", path, "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:prop>"
                + "<k xmlns=\"urn:k\"/></D:prop></D:propfind>", "Depth", "0");
        assertThat(r.statusCode()).isEqualTo(207);
        return DavClient.text(r);
    }

    /**
     * Waits until a thread is blocked entering a monitor the held request's thread owns (held at
     * COMMITTING, that is the commit lock): the request sent last has arrived and waits for it.
     * (A fixed sleep took a second and could not tell a waiting request from one not yet there.)
     */
    private void awaitABlockedThreadBehindTheHeldRequest() throws InterruptedException {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long heldId = held.getId();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            for (java.lang.management.ThreadInfo t : threads.dumpAllThreads(false, false)) {
                if (t.getThreadState() == Thread.State.BLOCKED && t.getLockOwnerId() == heldId) {
                    return;
                }
            }
            Thread.sleep(10);
        }
        org.assertj.core.api.Assertions.fail("no request came to wait for the held one within 20 s");
    }

    /** Holds the first request that reaches {@code stage} until {@link #release} opens. */
    private void holdAt(WriteMethods.Stage stage) {
        WriteMethods.pauseForTests = s -> {
            if (s == stage && arrived.getCount() > 0) {
                held = Thread.currentThread();
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
