package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The WebDAV methods through a real HTTP client against a real vault: byte ranges around the
 * vault's 4 KiB content units, 416, conditional requests, concurrent PUTs, COPY and MOVE of
 * folders (Depth, Overwrite), PROPFIND depth limits, LOCK conflicts (423) and their resolution,
 * and NFD names for macOS Finder.
 */
class MethodsTest {
    private static final int UNIT = 4096;

    @TempDir
    static Path tmp;

    /** One server for the class (a server's stop takes a second): each test starts from an empty root. */
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

    @AfterEach
    void emptyTheRoot() throws Exception {
        served.emptyRoot();
    }

    private static byte[] pattern(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void rangesAroundContentUnits() throws Exception {
        byte[] content = pattern(5 * UNIT + 123, 1);
        assertThat(dav.send("PUT", "/r.bin", HttpRequest.BodyPublishers.ofByteArray(content)).statusCode()).isEqualTo(201);
        long[][] ranges = {{0, 0}, {0, UNIT - 1}, {UNIT - 1, UNIT}, {UNIT, 2 * UNIT - 1}, {UNIT - 1, 3 * UNIT + 1}, {2 * UNIT, 2 * UNIT},
            {5 * UNIT - 1, 5 * UNIT + 122}, {5 * UNIT + 122, 5 * UNIT + 122}, {3 * UNIT + 7, 10 * UNIT}};
        for (long[] r : ranges) {
            HttpResponse<byte[]> res = dav.send("GET", "/r.bin", (String) null, "Range", "bytes=" + r[0] + "-" + r[1]);
            long end = Math.min(r[1], content.length - 1);
            assertThat(res.statusCode()).isEqualTo(206);
            assertThat(res.headers().firstValue("Content-Range")).hasValue("bytes " + r[0] + "-" + end + "/" + content.length);
            assertThat(res.body()).as("range %d-%d", r[0], r[1]).isEqualTo(Arrays.copyOfRange(content, (int) r[0], (int) end + 1));
        }
        HttpResponse<byte[]> suffix = dav.send("GET", "/r.bin", (String) null, "Range", "bytes=-" + (UNIT + 1));
        assertThat(suffix.statusCode()).isEqualTo(206);
        assertThat(suffix.body()).isEqualTo(Arrays.copyOfRange(content, content.length - UNIT - 1, content.length));
        HttpResponse<byte[]> open = dav.send("GET", "/r.bin", (String) null, "Range", "bytes=" + UNIT + "-");
        assertThat(open.body()).isEqualTo(Arrays.copyOfRange(content, UNIT, content.length));
        HttpResponse<byte[]> beyond = dav.send("GET", "/r.bin", (String) null, "Range", "bytes=" + content.length + "-");
        assertThat(beyond.statusCode()).isEqualTo(416);
        assertThat(beyond.headers().firstValue("Content-Range")).hasValue("bytes */" + content.length);
        HttpResponse<byte[]> multi = dav.send("GET", "/r.bin", (String) null, "Range", "bytes=0-1,5-6");
        assertThat(multi.statusCode()).isEqualTo(200);
        assertThat(multi.body()).isEqualTo(content);
        HttpResponse<byte[]> garbage = dav.send("GET", "/r.bin", (String) null, "Range", "bytes=x-y");
        assertThat(garbage.statusCode()).isEqualTo(200);
    }

    @Test
    void conditionalRequests() throws Exception {
        dav.send("PUT", "/c.txt", "one");
        HttpResponse<byte[]> get = dav.send("GET", "/c.txt", (String) null);
        String etag = get.headers().firstValue("ETag").orElseThrow();
        assertThat(get.headers().firstValue("Last-Modified")).isPresent();
        assertThat(dav.send("GET", "/c.txt", (String) null, "If-None-Match", etag).statusCode()).isEqualTo(304);
        assertThat(dav.send("PUT", "/c.txt", "two", "If-Match", "\"other\"").statusCode()).isEqualTo(412);
        assertThat(dav.send("PUT", "/c.txt", "two", "If-None-Match", "*").statusCode()).isEqualTo(412);
        assertThat(dav.send("PUT", "/c.txt", "two", "If-Match", etag).statusCode()).isEqualTo(204);
        assertThat(dav.send("PUT", "/new.txt", "n", "If-None-Match", "*").statusCode()).isEqualTo(201);
        HttpResponse<byte[]> ifRange = dav.send("GET", "/c.txt", (String) null, "Range", "bytes=0-0", "If-Range", etag);
        assertThat(ifRange.statusCode()).as("stale If-Range gets the whole file").isEqualTo(200);
        assertThat(Files.readString(served.root.resolve("c.txt"))).isEqualTo("two");
    }

    @Test
    void concurrentPutsOfDifferentFiles() throws Exception {
        int n = 12;
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                results.add(pool.submit(() -> dav.send("PUT", "/p" + k + ".bin",
                        HttpRequest.BodyPublishers.ofByteArray(pattern(300_000 + k * 1000, k))).statusCode()));
            }
            for (Future<Integer> f : results) {
                assertThat(f.get()).isEqualTo(201);
            }
        } finally {
            pool.shutdown();
        }
        for (int i = 0; i < n; i++) {
            assertThat(Files.readAllBytes(served.root.resolve("p" + i + ".bin"))).isEqualTo(pattern(300_000 + i * 1000, i));
        }
    }

    @Test
    void copyAndMoveFolders() throws Exception {
        assertThat(dav.send("MKCOL", "/a", (String) null).statusCode()).isEqualTo(201);
        assertThat(dav.send("MKCOL", "/a/sub", (String) null).statusCode()).isEqualTo(201);
        dav.send("PUT", "/a/one.txt", "1");
        dav.send("PUT", "/a/sub/two.txt", "2");
        assertThat(dav.send("COPY", "/a", (String) null, "Destination", dav.url("/b")).statusCode()).isEqualTo(201);
        assertThat(Files.readString(served.root.resolve("b/sub/two.txt"))).isEqualTo("2");
        assertThat(dav.send("COPY", "/a", (String) null, "Destination", dav.url("/b"), "Overwrite", "F").statusCode()).isEqualTo(412);
        assertThat(dav.send("COPY", "/a", (String) null, "Destination", dav.url("/shallow"), "Depth", "0").statusCode()).isEqualTo(201);
        try (var s = Files.list(served.root.resolve("shallow"))) {
            assertThat(s).isEmpty();
        }
        dav.send("PUT", "/b/extra.txt", "x");
        assertThat(dav.send("MOVE", "/a", (String) null, "Destination", dav.url("/b")).statusCode()).isEqualTo(204);
        assertThat(served.root.resolve("a")).doesNotExist();
        assertThat(served.root.resolve("b/extra.txt")).as("overwrite replaces the whole target").doesNotExist();
        assertThat(Files.readString(served.root.resolve("b/one.txt"))).isEqualTo("1");
        assertThat(dav.send("MOVE", "/b", (String) null, "Destination", dav.url("/b/inside")).statusCode()).isEqualTo(403);
        assertThat(dav.send("MOVE", "/b", (String) null, "Destination", dav.url("/missing/b")).statusCode()).isEqualTo(409);
        assertThat(dav.send("DELETE", "/b", (String) null).statusCode()).isEqualTo(204);
        assertThat(served.root.resolve("b")).doesNotExist();
    }

    @Test
    void aMoveOrCopyOntoAFolderThatHoldsTheSourceIsRefusedAndDeletesNothing() throws Exception {
        dav.send("MKCOL", "/a", (String) null);
        dav.send("MKCOL", "/a/b", (String) null);
        dav.send("PUT", "/a/precious.txt", "precious");
        dav.send("PUT", "/a/b/inner.txt", "inner");
        for (String method : List.of("MOVE", "COPY")) {
            assertThat(dav.send(method, "/a/b", (String) null, "Destination", dav.url("/a")).statusCode()).as(method).isEqualTo(403);
            assertThat(dav.send(method, "/a/precious.txt", (String) null, "Destination", dav.url("/a"), "Overwrite", "T")
                    .statusCode()).as(method).isEqualTo(403);
        }
        assertThat(Files.readString(served.root.resolve("a/precious.txt"))).isEqualTo("precious");
        assertThat(Files.readString(served.root.resolve("a/b/inner.txt"))).isEqualTo("inner");
    }

    /**
     * Two clients edit the same version (If-Match its ETag); the slower upload, whose body was still
     * arriving when the other landed, is refused (412) instead of overwriting it.
     */
    @Test
    void ofTwoUploadsAgainstOneEtagTheSlowerIsRefused() throws Exception {
        String etag = dav.send("PUT", "/doc.txt", "base").headers().firstValue("ETag").orElseThrow();
        java.util.concurrent.CountDownLatch bodyMayEnd = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch bodyStarted = new java.util.concurrent.CountDownLatch(1);
        java.io.InputStream slowBody = new java.io.InputStream() {
            private int sent;

            @Override
            public int read() throws IOException {
                if (sent == 1) {
                    bodyStarted.countDown();
                    try {
                        bodyMayEnd.await();
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                return sent++ < 1000 ? 'A' : -1;
            }
        };
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.Future<HttpResponse<byte[]>> slow = pool.submit(() -> dav.send("PUT", "/doc.txt",
                    java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> slowBody), "If-Match", etag));
            assertThat(bodyStarted.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(dav.send("PUT", "/doc.txt", "B wins", "If-Match", etag).statusCode()).isEqualTo(204);
            bodyMayEnd.countDown();
            assertThat(slow.get(30, java.util.concurrent.TimeUnit.SECONDS).statusCode()).isEqualTo(412);
        } finally {
            bodyMayEnd.countDown();
            pool.shutdownNow();
        }
        assertThat(Files.readString(served.root.resolve("doc.txt"))).isEqualTo("B wins");
        try (var names = Files.list(served.root)) {
            assertThat(names.map(p -> p.getFileName().toString()).filter(n -> !n.equals(Staging.FOLDER)))
                    .containsExactly("doc.txt"); // no upload left behind
        }
        ServerLeftovers.assertNoneIn(served.root);
    }

    @Test
    void concurrentPropertyUpdatesOfOneResourceKeepEachOthersProperties() throws Exception {
        dav.send("PUT", "/props.txt", "p");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 20; round++) {
                List<java.util.concurrent.Future<Integer>> both = new ArrayList<>();
                for (String who : List.of("a", "b")) {
                    String body = "<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\" xmlns:z=\"urn:z\"><D:set><D:prop><z:"
                            + who + round + ">v</z:" + who + round + "></D:prop></D:set></D:propertyupdate>";
                    both.add(pool.submit(() -> dav.send("PROPPATCH", "/props.txt", body).statusCode()));
                }
                for (var f : both) {
                    assertThat(f.get(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(207);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        String all = new String(dav.send("PROPFIND", "/props.txt", (String) null, "Depth", "0").body(), StandardCharsets.UTF_8);
        for (int round = 0; round < 20; round++) {
            assertThat(all).contains("a" + round).contains("b" + round);
        }
    }

    @Test
    void anUploadWhoseBodyEndsEarlyIs400AndChangesNothing() throws Exception {
        dav.send("PUT", "/kept.txt", "kept");
        java.net.URI base = java.net.URI.create(served.url());
        try (java.net.Socket s = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), base.getPort())) {
            s.setSoTimeout(30_000);
            String head = "PUT " + base.getPath() + "kept.txt HTTP/1.1\r\nHost: " + base.getAuthority()
                    + "\r\nTransfer-Encoding: chunked\r\n\r\n1000\r\n" + "x".repeat(100);
            s.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            s.shutdownOutput(); // the client goes away in the middle of a chunk
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 400");
        }
        assertThat(Files.readString(served.root.resolve("kept.txt"))).isEqualTo("kept");
        try (var names = Files.list(served.root)) {
            assertThat(names.map(p -> p.getFileName().toString()).filter(n -> !n.equals(Staging.FOLDER))).containsExactly("kept.txt");
        }
        ServerLeftovers.assertNoneIn(served.root);
    }

    @Test
    void aNameXmlCannotCarryIsLeftOutOfTheListingWhichStaysXml() throws Exception {
        Files.createDirectory(served.root.resolve("ctl"));
        Files.writeString(served.root.resolve("ctl/a\u0001b.txt"), "control character"); // legal on Linux, through FUSE
        Files.writeString(served.root.resolve("ctl/ok.txt"), "ok");
        HttpResponse<byte[]> listing = dav.send("PROPFIND", "/ctl/", (String) null, "Depth", "1");
        assertThat(listing.statusCode()).isEqualTo(207);
        javax.xml.parsers.DocumentBuilderFactory f = javax.xml.parsers.DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.newDocumentBuilder().parse(new java.io.ByteArrayInputStream(listing.body())); // well-formed
        String body = new String(listing.body(), StandardCharsets.UTF_8);
        assertThat(body).contains("ok.txt").doesNotContain("a\u0001b");
    }

    @Test
    void aNameTheVaultCannotStoreIs400Not500() throws Exception {
        String tooLong = "/" + "a".repeat(300);
        assertThat(dav.send("PUT", tooLong, "x").statusCode()).isEqualTo(400);
        assertThat(dav.send("MKCOL", tooLong, (String) null).statusCode()).isEqualTo(400);
    }

    @Test
    void aRawUtf8NameInDestinationIsTheNameNotItsBytesAsLatin1() throws Exception {
        dav.send("PUT", "/src.txt", "source");
        java.net.URI base = java.net.URI.create(served.url());
        byte[] head = ("COPY " + base.getPath() + "src.txt HTTP/1.1\r\nHost: " + base.getAuthority()
                + "\r\nDestination: " + served.url() + "\u00e9t\u00e9.txt\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8);
        RawHttp.Answer copy = RawHttp.sendExact(base.getPort(), head);
        assertThat(copy.status()).isEqualTo(201);
        assertThat(Files.readString(served.root.resolve("\u00e9t\u00e9.txt"))).isEqualTo("source");
        byte[] latin1 = ("COPY " + base.getPath() + "src.txt HTTP/1.1\r\nHost: " + base.getAuthority()
                + "\r\nDestination: " + served.url() + "caf\u00e9.txt\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        assertThat(RawHttp.sendExact(base.getPort(), latin1).status()).as("not UTF-8: refused, not garbled").isIn(400, 403);
        try (var names = Files.list(served.root)) {
            assertThat(names.map(p -> p.getFileName().toString()).filter(n -> !n.equals(Staging.FOLDER)))
                    .containsExactlyInAnyOrder("src.txt", "\u00e9t\u00e9.txt");
        }
        ServerLeftovers.assertNoneIn(served.root);
    }

    @Test
    void writesToAReadOnlyVaultAre403Not500() throws Exception {
        Path vault = tmp.resolve("read-only/vault");
        dev.coffer.core.nio.CofferFileSystems.create(vault, "test passphrase".toCharArray(), ServedVault.FAST).close();
        try (CofferFileSystemHolder ro = CofferFileSystemHolder.readOnly(vault);
                WebDavServer server = WebDavServer.start(ro.fs.getPath("/"), 0)) {
            DavClient ro403 = new DavClient(server.url());
            assertThat(ro403.send("PUT", "/new.txt", "x").statusCode()).isEqualTo(403);
            assertThat(ro403.send("MKCOL", "/d", (String) null).statusCode()).isEqualTo(403);
        }
    }

    /** The test vault opened read-only. */
    private static final class CofferFileSystemHolder implements AutoCloseable {
        final dev.coffer.core.nio.CofferFileSystem fs;

        private CofferFileSystemHolder(dev.coffer.core.nio.CofferFileSystem fs) {
            this.fs = fs;
        }

        static CofferFileSystemHolder readOnly(Path vault) throws IOException {
            return new CofferFileSystemHolder(dev.coffer.core.nio.CofferFileSystems.open(vault, "test passphrase".toCharArray(), true));
        }

        @Override
        public void close() throws IOException {
            fs.close();
        }
    }

    @Test
    void propfindDepthIsBounded() throws Exception {
        dav.send("MKCOL", "/d", (String) null);
        HttpResponse<byte[]> inf = dav.send("PROPFIND", "/d", (String) null, "Depth", "infinity");
        assertThat(inf.statusCode()).isEqualTo(403);
        assertThat(DavClient.text(inf)).contains("propfind-finite-depth");
        assertThat(dav.send("PROPFIND", "/d", (String) null).statusCode()).as("no Depth means infinity").isEqualTo(403);
        assertThat(dav.send("PROPFIND", "/d", (String) null, "Depth", "1").statusCode()).isEqualTo(207);
        assertThat(dav.send("PROPFIND", "/d", "<not xml", "Depth", "0").statusCode()).isEqualTo(400);
    }

    @Test
    void lockConflictsAndTheirResolution() throws Exception {
        dav.send("PUT", "/l.txt", "x");
        HttpResponse<byte[]> lock = dav.send("LOCK", "/l.txt", DavClient.lockBody("exclusive"), "Timeout", "Second-60");
        assertThat(lock.statusCode()).isEqualTo(200);
        String token = lock.headers().firstValue("Lock-Token").orElseThrow();
        assertThat(DavClient.text(lock)).contains("Second-").contains("<D:owner>test</D:owner>");
        assertThat(dav.send("LOCK", "/l.txt", DavClient.lockBody("exclusive")).statusCode()).isEqualTo(423);
        assertThat(dav.send("LOCK", "/l.txt", DavClient.lockBody("shared")).statusCode()).isEqualTo(423);
        HttpResponse<byte[]> put = dav.send("PUT", "/l.txt", "y");
        assertThat(put.statusCode()).isEqualTo(423);
        assertThat(DavClient.text(put)).contains("lock-token-submitted");
        assertThat(dav.send("DELETE", "/l.txt", (String) null).statusCode()).isEqualTo(423);
        assertThat(dav.send("MOVE", "/l.txt", (String) null, "Destination", dav.url("/m.txt")).statusCode()).isEqualTo(423);
        assertThat(dav.send("PROPPATCH", "/l.txt", "<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\"><D:set><D:prop>"
                + "<z xmlns=\"urn:z\">1</z></D:prop></D:set></D:propertyupdate>").statusCode()).isEqualTo(423);
        assertThat(dav.send("PUT", "/l.txt", "y", "If", "(" + token + ")").statusCode()).isEqualTo(204);
        assertThat(dav.send("PUT", "/l.txt", "z", "If", "(<opaquelocktoken:wrong>)").statusCode()).isEqualTo(412);
        HttpResponse<byte[]> refresh = dav.send("LOCK", "/l.txt", (String) null, "If", "(" + token + ")", "Timeout", "Second-30");
        assertThat(refresh.statusCode()).isEqualTo(200);
        assertThat(dav.send("UNLOCK", "/l.txt", (String) null, "Lock-Token", "<opaquelocktoken:wrong>").statusCode()).isEqualTo(409);
        assertThat(dav.send("UNLOCK", "/l.txt", (String) null, "Lock-Token", token).statusCode()).isEqualTo(204);
        assertThat(dav.send("PUT", "/l.txt", "free").statusCode()).isEqualTo(204);
        assertThat(Files.readString(served.root.resolve("l.txt"))).isEqualTo("free");
    }

    @Test
    void sharedLocksAndDepthInfinityOnFolders() throws Exception {
        dav.send("MKCOL", "/f", (String) null);
        HttpResponse<byte[]> s1 = dav.send("LOCK", "/f", DavClient.lockBody("shared"), "Depth", "infinity");
        HttpResponse<byte[]> s2 = dav.send("LOCK", "/f", DavClient.lockBody("shared"), "Depth", "0");
        assertThat(s1.statusCode()).isEqualTo(200);
        assertThat(s2.statusCode()).isEqualTo(200);
        assertThat(dav.send("LOCK", "/f", DavClient.lockBody("exclusive")).statusCode()).isEqualTo(423);
        assertThat(dav.send("PUT", "/f/child.txt", "c").statusCode()).as("member of a locked folder").isEqualTo(423);
        String t1 = s1.headers().firstValue("Lock-Token").orElseThrow();
        assertThat(dav.send("PUT", "/f/child.txt", "c", "If", "(" + t1 + ")").statusCode()).isEqualTo(201);
        assertThat(dav.send("LOCK", "/f/child.txt", DavClient.lockBody("exclusive")).statusCode()).isEqualTo(423);
        HttpResponse<byte[]> unmapped = dav.send("LOCK", "/f/new.txt", DavClient.lockBody("shared"), "If", "(" + t1 + ")");
        assertThat(unmapped.statusCode()).as("LOCK on an unmapped URL creates an empty file").isEqualTo(201);
        assertThat(served.root.resolve("f/new.txt")).isEmptyFile();
        HttpResponse<byte[]> discovery = dav.send("PROPFIND", "/f/child.txt", "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:prop>"
                + "<D:lockdiscovery/></D:prop></D:propfind>", "Depth", "0");
        assertThat(DavClient.text(discovery)).contains(t1.substring(1, t1.length() - 1)).contains("<D:shared/>");
        // the class's next test starts without these locks
        assertThat(dav.send("UNLOCK", "/f/new.txt", (String) null, "Lock-Token", unmapped.headers().firstValue("Lock-Token").orElseThrow())
                .statusCode()).isEqualTo(204);
        assertThat(dav.send("UNLOCK", "/f", (String) null, "Lock-Token", s2.headers().firstValue("Lock-Token").orElseThrow())
                .statusCode()).isEqualTo(204);
        assertThat(dav.send("UNLOCK", "/f", (String) null, "Lock-Token", t1).statusCode()).isEqualTo(204);
    }

    @Test
    void macOsFinderGetsDecomposedNames() throws Exception {
        String nfc = Normalizer.normalize("Caf\u00e9 \u00fc.txt", Normalizer.Form.NFC);
        String nfd = Normalizer.normalize(nfc, Normalizer.Form.NFD);
        assertThat(dav.send("PUT", "/" + DavUrls.encodeSegment(nfd), "nfd in").statusCode()).isEqualTo(201);
        try (var s = Files.list(served.root)) {
            assertThat(s.map(p -> p.getFileName().toString()).filter(n -> !n.equals(Staging.FOLDER))).containsExactly(nfc);
        }
        ServerLeftovers.assertNoneIn(served.root);
        String finder = DavClient.text(dav.send("PROPFIND", "/", (String) null, "Depth", "1", "User-Agent", "WebDAVFS/3.0.0 (03008000) Darwin/22.1.0"));
        assertThat(finder).contains(DavUrls.encodeSegment(nfd)).contains(nfd).doesNotContain(DavUrls.encodeSegment(nfc));
        String other = DavClient.text(dav.send("PROPFIND", "/", (String) null, "Depth", "1", "User-Agent", "davfs2/1.7.0 neon/0.32.5"));
        assertThat(other).contains(DavUrls.encodeSegment(nfc)).doesNotContain(DavUrls.encodeSegment(nfd));
        assertThat(DavClient.text(dav.send("GET", "/" + DavUrls.encodeSegment(nfc), (String) null))).isEqualTo("nfd in");
        assertThat(new String(Files.readAllBytes(served.root.resolve(nfc)), StandardCharsets.UTF_8)).isEqualTo("nfd in");
    }

    @Test
    void putStreamsChunkedBodiesAndReportsExpectedLengthShortage() throws Exception {
        byte[] content = pattern(3 * UNIT + 5, 9);
        HttpRequest.BodyPublisher chunked = HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(content));
        HttpResponse<byte[]> put = dav.send("PUT", "/chunked.bin", chunked, "X-Expected-Entity-Length", String.valueOf(content.length));
        assertThat(put.statusCode()).isEqualTo(201);
        assertThat(put.headers().firstValue("ETag")).isPresent();
        assertThat(Files.readAllBytes(served.root.resolve("chunked.bin"))).isEqualTo(content);
        assertThat(dav.send("PUT", "/", "x").statusCode()).isEqualTo(400);
        assertThat(dav.send("PUT", "/nofolder/x.txt", "x").statusCode()).isEqualTo(409);
        assertThat(dav.send("PUT", "/chunked.bin", "x", "Content-Range", "bytes 0-0/1").statusCode()).isEqualTo(400);
    }
}
