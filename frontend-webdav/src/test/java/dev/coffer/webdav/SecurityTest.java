package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The server's refusals, over raw sockets so that nothing normalises the request: foreign or
 * missing {@code Host} (DNS rebinding), foreign {@code Origin} (cross-site pages), anything outside
 * the secret segment, path escapes in the request target and in {@code Destination}, the server's
 * own sidecars, oversized headers and XML bodies; and that a second server's vault cannot be
 * reached through the first. Refusals carry no body.
 */
class SecurityTest {
    @TempDir
    Path tmp;

    private ServedVault served;
    private int port;
    private String base;

    @BeforeEach
    void serve() throws IOException {
        served = new ServedVault(tmp);
        port = served.server.port();
        base = "/" + served.server.secretSegment();
        Files.writeString(served.root.resolve("inside.txt"), "inside");
        Files.createDirectory(served.root.resolve("folder"));
        Files.writeString(tmp.resolve("outside.txt"), "outside");
    }

    @AfterEach
    void stop() throws IOException {
        served.close();
    }

    @Test
    void aLocalClientIsServed() throws IOException {
        RawHttp.Answer a = RawHttp.send(port, "GET " + base + "/inside.txt HTTP/1.1\r\n" + RawHttp.host(port));
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.text()).isEqualTo("inside");
        for (String host : new String[] {"localhost:" + port, "LOCALHOST:" + port, "[::1]:" + port}) {
            assertThat(RawHttp.send(port, "GET " + base + "/inside.txt HTTP/1.1\r\nHost: " + host).status()).as(host).isEqualTo(200);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"evil.example", "evil.example:PORT", "127.0.0.1", "127.0.0.1:1", "localhost.evil.example:PORT",
        "127.0.0.2:PORT", "0.0.0.0:PORT", "127.0.0.1:PORTx"})
    void aForeignHostIsMisdirected(String host) throws IOException {
        RawHttp.Answer a = RawHttp.send(port, "GET " + base + "/inside.txt HTTP/1.1\r\nHost: " + host.replace("PORT", String.valueOf(port)));
        assertThat(a.status()).isIn(400, 421);
        assertThat(a.body()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://evil.example", "https://127.0.0.1:PORT", "http://127.0.0.1:1", "null", "http://localhost:PORT/x"})
    void aForeignOriginIsForbidden(String origin) throws IOException {
        RawHttp.Answer a = RawHttp.send(port, "PUT " + base + "/new.txt HTTP/1.1\r\n" + RawHttp.host(port) + "\r\nOrigin: "
                + origin.replace("PORT", String.valueOf(port)), "x".getBytes(StandardCharsets.UTF_8));
        assertThat(a.status()).isEqualTo(403);
        assertThat(a.body()).isEmpty();
        assertThat(served.root.resolve("new.txt")).doesNotExist();
    }

    @Test
    void theOwnOriginIsAllowed() throws IOException {
        RawHttp.Answer a = RawHttp.send(port, "GET " + base + "/inside.txt HTTP/1.1\r\n" + RawHttp.host(port) + "\r\nOrigin: http://127.0.0.1:" + port);
        assertThat(a.status()).isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/inside.txt", "/x/inside.txt", "/SECRETx/inside.txt", "/SECRET.", "/%53ECRET/inside.txt"})
    void anythingOutsideTheSecretSegmentIsABare404(String path) throws IOException {
        String p = path.replace("SECRET", served.server.secretSegment());
        for (String method : path.equals("/") ? new String[] {"GET", "PROPFIND"} : new String[] {"GET", "PROPFIND", "OPTIONS"}) {
            RawHttp.Answer a = RawHttp.send(port, method + " " + p + " HTTP/1.1\r\n" + RawHttp.host(port) + "\r\nDepth: 1");
            assertThat(a.status()).as(method + " " + path).isEqualTo(404);
            assertThat(a.body()).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"/../outside.txt", "/%2e%2e/outside.txt", "/folder/../../outside.txt", "/folder%2f..%2f..%2foutside.txt",
        "/folder%2F..%2F..%2Foutside.txt", "/..%5coutside.txt", "/..\\outside.txt", "/inside.txt%00", "/%00", "/folder/%2e%2e%2f%2e%2e%2foutside.txt",
        "/%c0%ae%c0%ae/outside.txt", "/%ff", "/.coffer-dav-props.inside.txt", "/folder/.coffer-dav-upload-x"})
    void pathEscapesAreRefused(String path) throws IOException {
        for (String method : new String[] {"GET", "PUT", "DELETE", "MKCOL", "PROPFIND"}) {
            RawHttp.Answer a = RawHttp.send(port, method + " " + base + path + " HTTP/1.1\r\n" + RawHttp.host(port) + "\r\nDepth: 0",
                    method.equals("PUT") ? new byte[] {1} : new byte[0]);
            assertThat(a.status()).as(method + " " + path).isBetween(400, 499);
            assertThat(a.text()).doesNotContain("outside");
        }
        assertThat(Files.readString(tmp.resolve("outside.txt"))).isEqualTo("outside");
        assertThat(tmp.resolve("outside.txt")).exists();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/../outside2.txt", "/folder/%2e%2e/%2e%2e/outside2.txt", "/folder%2f..%2f..%2foutside2.txt", "/..%5coutside2.txt",
        "/.coffer-dav-props.x", "/a%00b"})
    void destinationEscapesAreRefused(String dest) throws IOException {
        for (String method : new String[] {"COPY", "MOVE"}) {
            RawHttp.Answer a = RawHttp.send(port, method + " " + base + "/inside.txt HTTP/1.1\r\n" + RawHttp.host(port)
                    + "\r\nDestination: http://127.0.0.1:" + port + base + dest);
            assertThat(a.status()).as(method + " " + dest).isBetween(400, 499);
        }
        assertThat(tmp.resolve("outside2.txt")).doesNotExist();
        assertThat(served.root.resolve("inside.txt")).exists();
    }

    @Test
    void aDestinationOnAnotherServerIsRefused() throws IOException {
        RawHttp.Answer a = RawHttp.send(port, "COPY " + base + "/inside.txt HTTP/1.1\r\n" + RawHttp.host(port)
                + "\r\nDestination: http://evil.example" + base + "/copy.txt");
        assertThat(a.status()).isEqualTo(502);
        assertThat(served.root.resolve("copy.txt")).doesNotExist();
    }

    @Test
    void optionsOnTheServerRootNamesNoFile() throws IOException {
        RawHttp.Answer a = RawHttp.send(port, "OPTIONS / HTTP/1.1\r\n" + RawHttp.host(port));
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.headers()).containsEntry("dav", "1, 2");
        assertThat(a.body()).isEmpty();
    }

    @Test
    void sidecarsAreNeverListed() throws IOException {
        RawHttp.Answer patch = RawHttp.send(port, "PROPPATCH " + base + "/inside.txt HTTP/1.1\r\n" + RawHttp.host(port),
                ("<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\"><D:set><D:prop><z:p xmlns:z=\"urn:z\">v</z:p></D:prop>"
                        + "</D:set></D:propertyupdate>").getBytes(StandardCharsets.UTF_8));
        assertThat(patch.status()).isEqualTo(207);
        try (var names = Files.list(served.root)) {
            assertThat(names.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith(".coffer-dav-props"));
        }
        RawHttp.Answer list = RawHttp.send(port, "PROPFIND " + base + "/ HTTP/1.1\r\n" + RawHttp.host(port) + "\r\nDepth: 1");
        assertThat(list.status()).isEqualTo(207);
        assertThat(list.text()).contains("inside.txt").doesNotContain(".coffer-dav");
    }

    @Test
    void oversizedHeadersAndBodiesAreRefused() throws IOException {
        String big = "x".repeat(WebDavServer.MAX_HEADER_BYTES + 1);
        RawHttp.Answer a = RawHttp.send(port, "GET " + base + "/inside.txt HTTP/1.1\r\n" + RawHttp.host(port) + "\r\nX-Big: " + big);
        assertThat(a.status()).isEqualTo(431);
        for (String method : new String[] {"PROPFIND", "PROPPATCH", "LOCK"}) {
            // the announced length alone is refused, before any of the body is read
            RawHttp.Answer b = RawHttp.send(port, method + " " + base + "/inside.txt HTTP/1.1\r\n" + RawHttp.host(port)
                    + "\r\nDepth: 0\r\nContent-Length: " + (DavServlet.MAX_XML_BODY + 1));
            assertThat(b.status()).as(method).isEqualTo(413);
        }
    }

    @Test
    void unknownMethodsAreNotAllowed() throws IOException {
        for (String method : new String[] {"POST", "TRACE", "PATCH", "SEARCH", "FOO"}) {
            RawHttp.Answer a = RawHttp.send(port, method + " " + base + "/inside.txt HTTP/1.1\r\n" + RawHttp.host(port));
            assertThat(a.status()).as(method).isIn(405, 400);
        }
    }

    @Test
    void anotherVaultIsNotReachable(@TempDir Path other) throws IOException {
        try (ServedVault second = new ServedVault(other)) {
            Files.writeString(second.root.resolve("second.txt"), "second");
            int p2 = second.server.port();
            assertThat(second.server.secretSegment()).isNotEqualTo(served.server.secretSegment());
            // the first vault's segment on the second server, and the second's on the first
            assertThat(RawHttp.send(p2, "GET " + base + "/inside.txt HTTP/1.1\r\n" + RawHttp.host(p2)).status()).isEqualTo(404);
            assertThat(RawHttp.send(port, "GET /" + second.server.secretSegment() + "/second.txt HTTP/1.1\r\n" + RawHttp.host(port)).status())
                    .isEqualTo(404);
            // and a Host naming the other server's port is misdirected
            assertThat(RawHttp.send(port, "GET " + base + "/inside.txt HTTP/1.1\r\n" + RawHttp.host(p2)).status()).isEqualTo(421);
        }
    }

    @Test
    void theSecretSegmentHas128RandomBits() {
        byte[] decoded = java.util.Base64.getUrlDecoder().decode(served.server.secretSegment());
        assertThat(decoded).hasSize(16);
        assertThat(DavUrls.random().secret()).isNotEqualTo(DavUrls.random().secret());
    }
}
