package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzzing of what the server parses from a request: the request path ({@link DavUrls}), the
 * {@code If} header, {@code Range}, {@code Host}/{@code Origin}, and whole requests with random
 * methods, paths and WebDAV headers sent over a socket to a server with a real vault. The parsers
 * may only accept or refuse; an accepted path never leaves the root; the server answers every
 * request with a status below 500 and keeps serving. A few hundred tries each: seconds in CI.
 */
class RequestFuzzTest {
    private static final String SECRET = "c2VjcmV0c2VjcmV0c2VjcmV0";
    private static final String[] METHODS = {"GET", "HEAD", "PUT", "DELETE", "MKCOL", "COPY", "MOVE", "PROPFIND", "PROPPATCH", "LOCK",
        "UNLOCK", "OPTIONS", "POST", "BREW"};
    private static final String[] HEADERS = {"If", "Depth", "Destination", "Range", "Timeout", "Lock-Token", "Overwrite", "If-Match",
        "If-None-Match", "If-Range", "Origin", "X-Expected-Entity-Length", "User-Agent", "Content-Range"};

    private static Path tmp;
    private static CofferFileSystem fs;
    private static WebDavServer server;

    @BeforeContainer
    static void serve() throws IOException {
        tmp = Files.createTempDirectory("coffer-webdav-fuzz");
        fs = CofferFileSystems.create(tmp.resolve("vault"), "test passphrase".toCharArray(), ServedVault.FAST);
        Files.createDirectory(fs.getPath("/dir"));
        Files.writeString(fs.getPath("/dir/file.txt"), "content");
        server = WebDavServer.start(fs.getPath("/"), 0);
    }

    @AfterContainer
    static void stop() throws IOException {
        server.close();
        fs.close();
        try (var all = Files.walk(tmp)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Provide
    Arbitrary<String> rawPaths() {
        Arbitrary<String> piece = Arbitraries.oneOf(
                Arbitraries.of("/", "..", ".", "%2e", "%2E%2e", "%2f", "%2F", "%5c", "\\", "%00", "%", "%g1", "%c0%ae", "%ff", "%e2%80%ae",
                        "a", "dir", "file.txt", ".coffer-dav-props", "?", "#", ";", "//", "~", "%20", "\u00e9", "e\u0301"),
                Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(6));
        return piece.list().ofMaxSize(10).map(l -> String.join("", l));
    }

    @Property(tries = 2000)
    void decodedPathsStayInsideTheRoot(@ForAll("rawPaths") String tail) {
        DavUrls urls = new DavUrls(SECRET);
        Path root = Path.of("/srv/root");
        Optional<DavPath> p = urls.fromRawPath("/" + SECRET + "/" + tail);
        p.ifPresent(dp -> {
            Path resolved = dp.resolveIn(root);
            assertThat(resolved.normalize()).isEqualTo(resolved);
            assertThat(resolved.startsWith(root)).as(resolved.toString()).isTrue();
            assertThat(dp.segments()).allSatisfy(s -> assertThat(s).isNotIn("", ".", "..").doesNotContain("/", "\\", "\0")
                    .doesNotStartWith(DeadProperties.RESERVED_PREFIX));
        });
        assertThat(urls.fromRawPath(tail)).as("no secret, no path").satisfiesAnyOf(o -> assertThat(o).isEmpty(),
                o -> assertThat(tail).startsWith("/" + SECRET));
    }

    @Property(tries = 2000)
    void headerParsersOnlyAcceptOrRefuse(@ForAll("headerValues") String value) {
        try {
            IfHeader h = IfHeader.parse(value);
            assertThat(h.lists()).isNotEmpty();
        } catch (IfHeader.MalformedException expected) {
            // refused: 400
        }
        long[] r = ReadMethods.parseRange(value, 10_000);
        if (r != null && r.length == 2) {
            assertThat(r[0]).isBetween(0L, r[1]);
            assertThat(r[1]).isLessThan(10_000L);
        }
        new HostGuard(8080).check(value, value);
        LockMethods.timeoutSeconds(value);
        DavUrls.authority(value);
        new DavUrls(SECRET).fromUrl(value);
    }

    @Provide
    Arbitrary<String> headerValues() {
        Arbitrary<String> piece = Arbitraries.oneOf(
                Arbitraries.of("(", ")", "<", ">", "[", "]", "Not ", "<opaquelocktoken:x>", "\"etag\"", "W/", "bytes=", "-", ",", "0",
                        "99999999999999999999", "Second-", "Infinite", "infinity", "http://127.0.0.1:8080/", "localhost:8080", " ", "%2f"),
                Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(8));
        return piece.list().ofMaxSize(8).map(l -> String.join("", l));
    }

    /** Whether the request's Destination names an authority other than the server's own. */
    private static boolean foreignDestination(String head) {
        for (String line : head.split("\r\n")) {
            if (line.regionMatches(true, 0, "Destination:", 0, 12)) {
                try {
                    String authority = new java.net.URI(line.substring(12).trim()).getRawAuthority();
                    return authority != null && !authority.equalsIgnoreCase("127.0.0.1:" + server.port());
                } catch (java.net.URISyntaxException e) {
                    return false;
                }
            }
        }
        return false;
    }

    @Provide
    Arbitrary<String> requests() {
        Arbitrary<String> method = Arbitraries.of(METHODS);
        Arbitrary<String> path = rawPaths().map(t -> "/" + server.secretSegment() + "/" + t.replace("#", "").replace("?", "").replace(" ", "%20"));
        Arbitrary<String> headers = Combinators.combine(Arbitraries.of(HEADERS), headerValues()).as((n, v) -> n + ": " + v)
                .list().ofMaxSize(4).map(l -> String.join("\r\n", l));
        return Combinators.combine(method, path, headers).as((m, p, h) -> m + " " + p + " HTTP/1.1\r\n" + RawHttp.host(server.port())
                + (h.isEmpty() ? "" : "\r\n" + h));
    }

    @Property(tries = 300)
    void everyRequestGetsAClientErrorOrSuccess(@ForAll("requests") String head) throws IOException {
        RawHttp.Answer a = RawHttp.send(server.port(), head);
        if (a.status() == 502) {
            // RFC 4918 9.8.5/9.9.4: a COPY or MOVE whose Destination is on another server gets 502
            assertThat(foreignDestination(head)).as("502 is only for a Destination on another server:\n%s", head).isTrue();
        } else {
            assertThat(a.status()).as(head).isBetween(200, 499);
        }
        assertThat(RawHttp.send(server.port(), "GET /" + server.secretSegment() + "/dir/file.txt HTTP/1.1\r\n" + RawHttp.host(server.port()))
                .status()).as("still serving after:\n%s", head).isIn(200, 404);
    }
}
