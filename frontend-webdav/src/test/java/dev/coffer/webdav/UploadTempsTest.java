package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where an upload in progress keeps its bytes, seen over HTTP against a real vault: a PUT whose body
 * is still arriving while its folder is moved or copied. The upload's temp file must not travel with
 * the folder (a copy would keep a half-written hidden duplicate nobody removes; a move would strand
 * it), and once every request has ended no temp of the server's is left anywhere in the tree.
 */
class UploadTempsTest {
    private static final String UPLOAD_PREFIX = DeadProperties.RESERVED_PREFIX + "upload-";
    private static final int HALF = 512 * 1024;

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
    @Timeout(60)
    void aCopyOfAFolderDuringAnUploadIntoItCopiesNoPartOfTheUpload() throws Exception {
        Files.createDirectory(served.root.resolve("src"));
        Files.writeString(served.root.resolve("src/kept.txt"), "kept");
        byte[] body = pattern(2 * HALF);
        try (SlowPut put = SlowPut.start(served, "/src/new.bin", body)) {
            awaitUploadTemp();

            assertThat(dav.send("COPY", "/src", (String) null, "Destination", dav.url("/copy")).statusCode()).isEqualTo(201);

            assertThat(put.finish()).isEqualTo(201);
        }
        assertThat(Files.readAllBytes(served.root.resolve("src/new.bin"))).isEqualTo(body);
        assertThat(names(served.root.resolve("copy"))).containsExactly("kept.txt");
        assertNoServerTempsLeft();
    }

    @Test
    @Timeout(60)
    void aMoveOfAFolderDuringAnUploadIntoItFailsTheUploadCleanlyAndMovesNoPartOfIt() throws Exception {
        Files.createDirectory(served.root.resolve("src"));
        Files.writeString(served.root.resolve("src/kept.txt"), "kept");
        byte[] body = pattern(2 * HALF);
        try (SlowPut put = SlowPut.start(served, "/src/new.bin", body)) {
            awaitUploadTemp();

            assertThat(dav.send("MOVE", "/src", (String) null, "Destination", dav.url("/moved")).statusCode()).isEqualTo(201);

            // The folder it was sent to is gone: the upload fails (409) instead of landing elsewhere.
            assertThat(put.finish()).isEqualTo(409);
        }
        assertThat(served.root.resolve("src")).doesNotExist();
        assertThat(names(served.root.resolve("moved"))).containsExactly("kept.txt");
        assertThat(Files.readString(served.root.resolve("moved/kept.txt"))).isEqualTo("kept");
        assertNoServerTempsLeft();
    }

    /** The folder is moved away and a new one made under its name: the upload lands where its URL says. */
    @Test
    @Timeout(60)
    void anUploadWhoseFolderWasReplacedLandsInTheNewFolder() throws Exception {
        Files.createDirectory(served.root.resolve("src"));
        byte[] body = pattern(2 * HALF);
        try (SlowPut put = SlowPut.start(served, "/src/new.bin", body)) {
            awaitUploadTemp();
            assertThat(dav.send("MOVE", "/src", (String) null, "Destination", dav.url("/moved")).statusCode()).isEqualTo(201);
            assertThat(dav.send("MKCOL", "/src", (String) null).statusCode()).isEqualTo(201);

            assertThat(put.finish()).isEqualTo(201);
        }
        assertThat(Files.readAllBytes(served.root.resolve("src/new.bin"))).isEqualTo(body);
        assertThat(names(served.root.resolve("moved"))).isEmpty();
        assertNoServerTempsLeft();
    }

    /**
     * The commit lock is held for the checks and the rename only, never while a body comes in: with
     * a PUT's body half sent (it waits for the rest), writes of other resources (PROPPATCH, PUT,
     * MKCOL, LOCK, MOVE, DELETE) are answered at once. Each must answer within 10 s although the
     * slow request never finishes meanwhile.
     */
    @Test
    @Timeout(120)
    void aRequestWhoseBodyIsStillComingHoldsUpNoOtherWrite() throws Exception {
        Files.writeString(served.root.resolve("other.txt"), "other");
        Files.writeString(served.root.resolve("gone.txt"), "gone");
        String set = "<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\" xmlns:Z=\"urn:z\"><D:set><D:prop>"
                + "<Z:colour>blue</Z:colour></D:prop></D:set></D:propertyupdate>";
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool();
        String token;
        try (SlowPut put = SlowPut.start(served, "/big.bin", pattern(2 * HALF))) {
            awaitUploadTemp();
            assertThat(within(pool, () -> dav.send("PROPPATCH", "/other.txt", set, "Content-Type", "application/xml"))).isEqualTo(207);
            assertThat(within(pool, () -> dav.send("PUT", "/small.txt", "small"))).isEqualTo(201);
            assertThat(within(pool, () -> dav.send("MKCOL", "/dir", (String) null))).isEqualTo(201);
            java.net.http.HttpResponse<byte[]> lock = pool.submit(() -> dav.send("LOCK", "/small.txt", DavClient.lockBody("exclusive"),
                    "Content-Type", "application/xml")).get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(lock.statusCode()).isEqualTo(200);
            token = lock.headers().firstValue("Lock-Token").orElseThrow();
            assertThat(within(pool, () -> dav.send("MOVE", "/other.txt", (String) null, "Destination", dav.url("/dir/other.txt"))))
                    .isEqualTo(201);
            assertThat(within(pool, () -> dav.send("DELETE", "/gone.txt", (String) null))).isEqualTo(204);

            assertThat(put.finish()).isEqualTo(201);
        } finally {
            pool.shutdownNow();
        }
        // the class's next test starts without the lock
        assertThat(dav.send("UNLOCK", "/small.txt", (String) null, "Lock-Token", token).statusCode()).isEqualTo(204);
    }

    /**
     * The PROPPATCH half: over a {@link dev.coffer.core.nio.RecordingFileSystem}, the test waits for
     * the PROPPATCH's stat of its resource (its checks, right before it reads its body, with nothing
     * taken in between) before it sends the PUT. Before, it sent the PUT at once, which could be
     * answered before the PROPPATCH was even dispatched, so that half could pass testing nothing.
     */
    @Test
    @Timeout(120)
    void aPropPatchWhoseBodyIsStillComingHoldsUpNoOtherWrite() throws Exception {
        dev.coffer.core.nio.RecordingFileSystem rec = new dev.coffer.core.nio.RecordingFileSystem();
        Path plain = Files.createDirectory(tmp.resolve("plain"));
        Files.writeString(plain.resolve("patched.txt"), "patched");
        String set = "<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\" xmlns:Z=\"urn:z\"><D:set><D:prop>"
                + "<Z:colour>blue</Z:colour></D:prop></D:set></D:propertyupdate>";
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool();
        try (WebDavServer server = WebDavServer.start(rec.wrap(plain), 0)) {
            DavClient client = new DavClient(server.url());
            String target = plain.resolve("patched.txt").toString();
            rec.statted.clear();
            try (SlowPut patch = SlowPut.start(server, "PROPPATCH", "/patched.txt", set.getBytes(StandardCharsets.UTF_8))) {
                long deadline = System.nanoTime() + 20_000_000_000L;
                while (!rec.statted.contains(target)) {
                    assertThat(System.nanoTime()).as("the PROPPATCH reached its checks").isLessThan(deadline);
                    Thread.sleep(5);
                }
                assertThat(within(pool, () -> client.send("PUT", "/after.txt", "after"))).isEqualTo(201);
                assertThat(patch.finish()).isEqualTo(207);
            }
            assertThat(DavClient.text(client.send("PROPFIND", "/patched.txt", (String) null, "Depth", "0"))).contains("blue");
        } finally {
            pool.shutdownNow();
        }
    }

    /** The status of {@code request}, which must be answered within 10 s (it would wait for ever if it waited on the slow request). */
    private static int within(java.util.concurrent.ExecutorService pool, java.util.concurrent.Callable<java.net.http.HttpResponse<byte[]>> request)
            throws Exception {
        return pool.submit(request).get(10, java.util.concurrent.TimeUnit.SECONDS).statusCode();
    }

    /**
     * A temp found in a folder (an upload of an earlier version killed mid-body; a target set aside
     * by an overwriting MOVE or COPY) is not copied with it; the members' dead properties are.
     */
    @Test
    void aCopyOfAFolderTakesItsMembersAndTheirPropertiesButNoTempOfTheServers() throws Exception {
        Path src = Files.createDirectory(served.root.resolve("src"));
        Files.writeString(src.resolve("kept.txt"), "kept");
        Files.write(src.resolve(UPLOAD_PREFIX + "killed"), pattern(1000));
        Files.createDirectory(src.resolve(DeadProperties.RESERVED_PREFIX + "aside-x"));
        Files.writeString(src.resolve(DeadProperties.RESERVED_PREFIX + "aside-x/old.txt"), "old");
        String set = "<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\" xmlns:Z=\"urn:z\"><D:set><D:prop>"
                + "<Z:colour>blue</Z:colour></D:prop></D:set></D:propertyupdate>";
        assertThat(dav.send("PROPPATCH", "/src/kept.txt", set, "Content-Type", "application/xml").statusCode()).isEqualTo(207);

        assertThat(dav.send("COPY", "/src", (String) null, "Destination", dav.url("/copy")).statusCode()).isEqualTo(201);

        assertThat(names(served.root.resolve("copy"))).containsExactly(DeadProperties.SIDECAR_PREFIX + ".kept.txt", "kept.txt");
        assertThat(DavClient.text(dav.send("PROPFIND", "/copy/kept.txt", (String) null, "Depth", "0"))).contains("blue");
    }

    /** A server killed mid-upload left its temp: the next server to serve the tree removes it before it serves. */
    @Test
    void theNextServerRemovesTheUploadsAKilledServerLeft() throws Exception {
        try (ServedVault own = new ServedVault(tmp.resolve("killed"))) { // not the class's: the next server takes its staging folder
            Path staging = Files.createDirectory(own.root.resolve(Staging.FOLDER));
            Files.write(staging.resolve(UPLOAD_PREFIX + "killed"), pattern(1000));

            try (WebDavServer next = WebDavServer.start(own.root, 0)) {
                assertThat(staging).doesNotExist();
                assertThat(new DavClient(next.url()).send("PUT", "/after.txt", "after").statusCode()).isEqualTo(201);
            }
            assertNoServerTempsLeftIn(own.root);
        }
    }

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    /** Waits until the server has opened the upload's temp file: the PUT is then reading its body. */
    private void awaitUploadTemp() throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (serverTemps().isEmpty()) {
            assertThat(System.nanoTime()).as("the upload's temp file never appeared").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private void assertNoServerTempsLeft() throws IOException {
        assertNoServerTempsLeftIn(served.root);
    }

    private static void assertNoServerTempsLeftIn(Path root) throws IOException {
        assertThat(serverTemps(root)).isEmpty();
        ServerLeftovers.assertNoneIn(root);
    }

    private List<String> serverTemps() throws IOException {
        return serverTemps(served.root);
    }

    /** Every upload temp anywhere in the vault, hidden or not. */
    private static List<String> serverTemps(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(p -> p.getFileName() != null && p.getFileName().toString().startsWith(UPLOAD_PREFIX))
                    .map(Path::toString).toList();
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** A request over a raw socket that sends the first half of its body at once and the rest on {@link #finish}. */
    private static final class SlowPut implements AutoCloseable {
        private final Socket socket;
        private final byte[] body;
        private final int half;

        private SlowPut(Socket socket, byte[] body, int half) {
            this.socket = socket;
            this.body = body;
            this.half = half;
        }

        static SlowPut start(ServedVault served, String path, byte[] body) throws IOException {
            return start(served, "PUT", path, body);
        }

        static SlowPut start(ServedVault served, String method, String path, byte[] body) throws IOException {
            return start(served.server, method, path, body);
        }

        static SlowPut start(WebDavServer server, String method, String path, byte[] body) throws IOException {
            Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
            s.setSoTimeout(30_000);
            String head = method + " " + java.net.URI.create(server.url()).getPath().replaceAll("/$", "") + path + " HTTP/1.1\r\n"
                    + RawHttp.host(server.port()) + "\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
            int half = Math.min(HALF, body.length / 2);
            OutputStream out = s.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.write(body, 0, half);
            out.flush();
            return new SlowPut(s, body, half);
        }

        /** Sends the rest of the body and returns the answer's status. */
        int finish() throws IOException {
            OutputStream out = socket.getOutputStream();
            out.write(body, half, body.length - half);
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(answer.split(" ", 3)[1]);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
