package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A COPY of a large file, watched over HTTP while it runs: the target is never seen half-written
 * (a client reading it meanwhile would get a cut-short file, and a server killed meanwhile would
 * leave one under the name), only as it was before or as the whole copy; a lock another client
 * takes on the target meanwhile is honoured.
 */
class CopyVisibilityTest {
    private static final int BIG = 48 << 20;

    @TempDir
    static Path tmp;

    /** One server for the class (a server's stop waits a second for the client's idle connection). */
    private static ServedVault served;
    private static DavClient dav;

    @BeforeAll
    static void serve() throws IOException {
        served = new ServedVault(tmp);
        dav = new DavClient(served.url());
    }

    @AfterAll
    static void stop() throws IOException {
        served.close();
    }

    /** Each test starts from an empty root. */
    @AfterEach
    void emptyTheRoot() throws Exception {
        served.emptyRoot();
    }

    @Test
    @Timeout(120)
    void aNewCopyIsAbsentUntilItIsWhole() throws Exception {
        writeBig("big.bin");

        Set<String> seen = copyWatching("/big.bin", "/copy.bin");

        assertThat(seen).isSubsetOf("404", "200 " + BIG);
        assertThat(Files.size(served.root.resolve("copy.bin"))).isEqualTo(BIG);
        assertNothingHiddenInTheRoot();
    }

    @Test
    @Timeout(120)
    void anOverwrittenTargetStaysAsItWasUntilTheCopyIsWhole() throws Exception {
        writeBig("big.bin");
        Files.writeString(served.root.resolve("old.bin"), "old");

        Set<String> seen = copyWatching("/big.bin", "/old.bin");

        // never 404: the copy replaces the old file in one rename
        assertThat(seen).isSubsetOf("200 3", "200 " + BIG);
        assertThat(Files.size(served.root.resolve("old.bin"))).isEqualTo(BIG);
        assertNothingHiddenInTheRoot();
    }

    @Test
    @Timeout(120)
    void aFolderCopyIsAbsentUntilItIsWhole() throws Exception {
        Files.createDirectory(served.root.resolve("src"));
        writeBig("src/big.bin");

        Set<String> seen = copyWatching("/src", "/dst");

        assertThat(seen).isSubsetOf("404", "200 " + BIG);
        assertThat(Files.size(served.root.resolve("dst/big.bin"))).isEqualTo(BIG);
        assertNothingHiddenInTheRoot();
    }

    /**
     * A file COPYed or MOVEd over a file replaces it in one rename, as a PUT does: the name is never
     * absent (a reader meanwhile got 404), and a server killed in between can never leave the old
     * file hidden under a server name, out of every client's sight, with the name gone.
     */
    @Test
    @Timeout(120)
    void aFileCopiedOrMovedOverAFileReplacesItWithoutAMomentWithoutIt() throws Exception {
        Files.writeString(served.root.resolve("src.bin"), "new");
        Files.writeString(served.root.resolve("old.bin"), "old");
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger absent = new java.util.concurrent.atomic.AtomicInteger();
        Thread watcher = new Thread(() -> {
            while (!done.get()) {
                if (!Files.exists(served.root.resolve("old.bin"))) {
                    absent.incrementAndGet();
                }
            }
        });
        watcher.start();
        try {
            for (int i = 0; i < 40; i++) {
                assertThat(dav.send("COPY", "/src.bin", (String) null, "Destination", dav.url("/old.bin")).statusCode())
                        .isEqualTo(204);
                assertThat(dav.send("COPY", "/src.bin", (String) null, "Destination", dav.url("/moved.bin")).statusCode())
                        .isIn(201, 204);
                assertThat(dav.send("MOVE", "/moved.bin", (String) null, "Destination", dav.url("/old.bin")).statusCode())
                        .isEqualTo(204);
            }
        } finally {
            done.set(true);
            watcher.join();
        }
        assertThat(absent.get()).as("times the overwritten name was absent").isZero();
        assertThat(Files.readString(served.root.resolve("old.bin"))).isEqualTo("new");
        assertNothingHiddenInTheRoot();
    }

    /** Another client locks the target while the copy runs: the copy then needs its token (423), and the target stays. */
    @Test
    @Timeout(120)
    void aLockTakenOnTheTargetDuringACopyIsHonouredAndTheTargetKept() throws Exception {
        writeBig("big.bin");
        Files.writeString(served.root.resolve("old.bin"), "old");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<HttpResponse<byte[]>> copy = pool.submit(() -> dav.send("COPY", "/big.bin", (String) null, "Destination", dav.url("/old.bin")));
            while (!serverEntryInRoot()) {
                assertThat(copy.isDone()).as("the copy ended before the server made anything of it").isFalse();
                Thread.sleep(2);
            }

            HttpResponse<byte[]> lock = dav.send("LOCK", "/old.bin", DavClient.lockBody("exclusive"), "Timeout", "Second-60");

            assertThat(lock.statusCode()).isIn(200, 201);
            assertThat(copy.get().statusCode()).isEqualTo(423);
            assertThat(Files.readString(served.root.resolve("old.bin"))).isEqualTo("old");
            assertNothingHiddenInTheRoot();
            // the class's next test starts without the lock
            assertThat(dav.send("UNLOCK", "/old.bin", (String) null, "Lock-Token", lock.headers().firstValue("Lock-Token").orElseThrow())
                    .statusCode()).isEqualTo(204);
        } finally {
            pool.shutdownNow();
        }
    }

    private boolean serverEntryInRoot() throws IOException {
        return ServerLeftovers.anyStaged(served.root);
    }

    private void writeBig(String name) throws IOException {
        byte[] chunk = new byte[1 << 20];
        new Random(7).nextBytes(chunk);
        try (var out = Files.newOutputStream(served.root.resolve(name))) {
            for (int i = 0; i < BIG / chunk.length; i++) {
                out.write(chunk);
            }
        }
    }

    /**
     * COPYs {@code from} to {@code to} while this thread keeps asking for {@code to} (a HEAD of a
     * file; for a folder a Depth 1 PROPFIND, then, once it lists big.bin, a HEAD of that); returns
     * what it saw: "404", or "200 LENGTH" of the file.
     */
    private Set<String> copyWatching(String from, String to) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<HttpResponse<byte[]>> copy = pool.submit(() -> dav.send("COPY", from, (String) null, "Destination", dav.url(to)));
            Set<String> seen = new TreeSet<>();
            boolean folder = Files.isDirectory(served.root.resolve(from.substring(1)));
            while (!copy.isDone()) {
                if (folder) {
                    HttpResponse<byte[]> list = dav.send("PROPFIND", to, (String) null, "Depth", "1");
                    if (list.statusCode() == 404) {
                        seen.add("404");
                    } else if (DavClient.text(list).contains("big.bin")) {
                        seen.add(head(to + "/big.bin"));
                    }
                } else {
                    seen.add(head(to));
                }
            }
            assertThat(copy.get().statusCode()).isIn(201, 204);
            return seen;
        } finally {
            pool.shutdownNow();
        }
    }

    private String head(String path) throws Exception {
        HttpResponse<byte[]> r = dav.send("HEAD", path, (String) null);
        return r.statusCode() == 404 ? "404" : r.statusCode() + " " + r.headers().firstValue("Content-Length").orElse("?");
    }

    private void assertNothingHiddenInTheRoot() throws IOException {
        ServerLeftovers.assertNoneIn(served.root);
    }
}
