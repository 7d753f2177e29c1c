package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The second credential of a server Coffer mounts itself ({@link WebDavServer#startWithCredential}),
 * over raw sockets: below the right secret segment, a request without the HTTP Basic credential, with
 * a wrong user or password or a malformed header gets 401 with {@code WWW-Authenticate} and no body
 * (for every method: GET, HEAD, OPTIONS, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY and MOVE with
 * a Destination, LOCK, UNLOCK; for chunked, large and {@code Expect: 100-continue} bodies; and
 * nothing is written or locked); the right credential is
 * served; a wrong segment stays a bare 404 and OPTIONS on {@code /} is answered as without a
 * credential; another server's credential does not open this one; after {@link WebDavServer#close}
 * the credential is wiped; a server without a credential serves as before.
 */
class CredentialTest {
    @TempDir
    Path tmp;

    private ServedVault served;
    private int port;
    private String base;

    @BeforeEach
    void serve() throws IOException {
        served = new ServedVault(tmp, true);
        port = served.server.port();
        base = "/" + served.server.secretSegment();
        Files.writeString(served.root.resolve("inside.txt"), "inside");
    }

    @AfterEach
    void stop() throws IOException {
        served.close();
    }

    private static String basic(String userColonPassword) {
        return "Authorization: Basic " + Base64.getEncoder().encodeToString(userColonPassword.getBytes(StandardCharsets.UTF_8));
    }

    private String right() {
        return basic("coffer:" + served.password());
    }

    private RawHttp.Answer get(String path, String auth) throws IOException {
        return RawHttp.send(port, "GET " + path + " HTTP/1.1\r\n" + RawHttp.host(port) + (auth == null ? "" : "\r\n" + auth));
    }

    private static void assertUnauthorized(RawHttp.Answer a) {
        assertThat(a.status()).isEqualTo(401);
        assertThat(a.headers()).containsEntry("www-authenticate", "Basic realm=\"Coffer\"");
        assertThat(a.body()).isEmpty();
    }

    @Test
    void thePasswordHas192RandomBits() {
        String password = served.password();
        assertThat(password).matches("[A-Za-z0-9_-]{32}");
        assertThat(Base64.getUrlDecoder().decode(password)).hasSize(DavCredential.PASSWORD_BYTES);
        assertThat(DavCredential.PASSWORD_BYTES * 8).isEqualTo(192);
        assertThat(served.server.credential().toString()).doesNotContain(password);
        assertThat(served.server.requiresCredential()).isTrue();
    }

    @Test
    void theRightCredentialIsServed() throws IOException {
        RawHttp.Answer a = get(base + "/inside.txt", right());
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.text()).isEqualTo("inside");
        String lowerScheme = right().replace("Basic ", "basic ");
        assertThat(get(base + "/inside.txt", lowerScheme).status()).as("the scheme is case-insensitive").isEqualTo(200);
        RawHttp.Answer put = RawHttp.send(port, "PUT " + base + "/new.txt HTTP/1.1\r\n" + RawHttp.host(port) + "\r\n" + right(),
                "new".getBytes(StandardCharsets.UTF_8));
        assertThat(put.status()).isEqualTo(201);
        assertThat(Files.readString(served.root.resolve("new.txt"))).isEqualTo("new");
    }

    @Test
    void noCredentialIsUnauthorized() throws IOException {
        assertUnauthorized(get(base + "/inside.txt", null));
        assertUnauthorized(get(base + "/", null));
        assertUnauthorized(get(base + "/missing.txt", null)); // says nothing about what exists
        assertUnauthorized(RawHttp.send(port, "PROPFIND " + base + "/ HTTP/1.1\r\n" + RawHttp.host(port) + "\r\nDepth: 1"));
        assertUnauthorized(RawHttp.send(port, "OPTIONS " + base + "/ HTTP/1.1\r\n" + RawHttp.host(port)));
        assertUnauthorized(RawHttp.send(port, "LOCK " + base + "/inside.txt HTTP/1.1\r\n" + RawHttp.host(port),
                "<?xml version=\"1.0\"?><D:lockinfo xmlns:D=\"DAV:\"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>"
                        .getBytes(StandardCharsets.UTF_8)));
        assertUnauthorized(RawHttp.send(port, "PUT " + base + "/new.txt HTTP/1.1\r\n" + RawHttp.host(port), "x".getBytes(StandardCharsets.UTF_8)));
        assertUnauthorized(RawHttp.send(port, "DELETE " + base + "/inside.txt HTTP/1.1\r\n" + RawHttp.host(port)));
        assertThat(served.root.resolve("new.txt")).doesNotExist();
        assertThat(served.root.resolve("inside.txt")).exists();
    }

    /** Each method without a credential: 401, and the tree is as before. */
    @ParameterizedTest
    @ValueSource(strings = {"GET /inside.txt", "HEAD /inside.txt", "OPTIONS /inside.txt", "PUT /new.txt", "DELETE /inside.txt",
        "PROPFIND /", "PROPPATCH /inside.txt", "MKCOL /folder", "COPY /inside.txt", "MOVE /inside.txt", "LOCK /inside.txt",
        "UNLOCK /inside.txt"})
    void everyMethodWithoutACredentialIsUnauthorized(String methodAndPath) throws IOException {
        String method = methodAndPath.substring(0, methodAndPath.indexOf(' '));
        String head = method + " " + base + methodAndPath.substring(method.length() + 1) + " HTTP/1.1\r\n" + RawHttp.host(port);
        byte[] body = new byte[0];
        switch (method) {
            case "PROPFIND" -> head += "\r\nDepth: 1";
            case "COPY", "MOVE" -> head += "\r\nDestination: http://127.0.0.1:" + port + base + "/moved.txt\r\nOverwrite: T";
            case "UNLOCK" -> head += "\r\nLock-Token: <opaquelocktoken:00000000-0000-0000-0000-000000000000>";
            case "PUT" -> body = "x".getBytes(StandardCharsets.UTF_8);
            case "PROPPATCH" -> body = ("<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\" xmlns:Z=\"urn:z\"><D:set><D:prop>"
                    + "<Z:note>x</Z:note></D:prop></D:set></D:propertyupdate>").getBytes(StandardCharsets.UTF_8);
            case "LOCK" -> body = ("<?xml version=\"1.0\"?><D:lockinfo xmlns:D=\"DAV:\"><D:lockscope><D:exclusive/></D:lockscope>"
                    + "<D:locktype><D:write/></D:locktype></D:lockinfo>").getBytes(StandardCharsets.UTF_8);
            default -> { }
        }
        assertUnauthorized(RawHttp.send(port, head, body));
        assertTreeUnchanged();
        if (method.equals("LOCK")) {
            assertThat(RawHttp.send(port, "PUT " + base + "/inside.txt HTTP/1.1\r\n" + RawHttp.host(port) + "\r\n" + right(),
                    "changed".getBytes(StandardCharsets.UTF_8)).status()).as("not locked by the refused LOCK").isEqualTo(204);
        }
    }

    /** Only inside.txt, unchanged, and no property sidecar: nothing was written without the credential. */
    private void assertTreeUnchanged() throws IOException {
        try (var files = Files.list(served.root)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactly("inside.txt");
        }
        assertThat(served.root.resolve("inside.txt")).hasContent("inside");
    }

    @Test
    void bodiesWithoutACredentialAreRefusedBeforeTheyAreWritten() throws IOException {
        String put = "PUT " + base + "/big.bin HTTP/1.1\r\n" + RawHttp.host(port) + "\r\nConnection: close\r\n";
        // chunked
        String chunked = put + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
        assertUnauthorized(RawHttp.sendExact(port, chunked.getBytes(StandardCharsets.ISO_8859_1)));
        // more than 1 MiB (the server may answer before reading it all)
        byte[] big = new byte[3 << 20];
        java.util.Arrays.fill(big, (byte) 'b');
        java.io.ByteArrayOutputStream request = new java.io.ByteArrayOutputStream();
        request.writeBytes((put + "Content-Length: " + big.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        request.writeBytes(big);
        assertUnauthorized(RawHttp.sendExact(port, request.toByteArray()));
        // Expect: 100-continue: 401 at once, no "100 Continue" inviting the body
        RawHttp.Answer expect = RawHttp.sendExact(port, (put + "Content-Length: 10\r\nExpect: 100-continue\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        assertUnauthorized(expect);
        assertTreeUnchanged();
    }

    @Test
    void aWrongUserOrPasswordIsUnauthorized() throws IOException {
        String password = served.password();
        assertUnauthorized(get(base + "/inside.txt", basic("Coffer:" + password)));
        assertUnauthorized(get(base + "/inside.txt", basic("someone:" + password)));
        assertUnauthorized(get(base + "/inside.txt", basic("coffer:" + password.substring(1))));
        assertUnauthorized(get(base + "/inside.txt", basic("coffer:" + password + "x")));
        assertUnauthorized(get(base + "/inside.txt", basic("coffer:" + password.substring(0, 31) + (password.charAt(31) == 'A' ? 'B' : 'A'))));
        assertUnauthorized(get(base + "/inside.txt", basic("coffer:")));
        assertUnauthorized(get(base + "/inside.txt", basic(password)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Authorization: Basic", "Authorization: Basic ", "Authorization: Basic !!!notbase64!!!",
        "Authorization: Bearer PASSWORD", "Authorization: Digest username=\"coffer\"", "Authorization: PASSWORD",
        "Authorization: Basic PASSWORD", "Authorization: BasicX"})
    void aMalformedHeaderIsUnauthorized(String header) throws IOException {
        assertUnauthorized(get(base + "/inside.txt", header.replace("PASSWORD", served.password())));
    }

    @Test
    void theCredentialIsCheckedOnlyBelowTheRightSegment() throws IOException {
        RawHttp.Answer unknown = get("/AAAAAAAAAAAAAAAAAAAAAA/inside.txt", null);
        assertThat(unknown.status()).as("an unknown segment stays a bare 404").isEqualTo(404);
        assertThat(unknown.headers()).doesNotContainKey("www-authenticate");
        assertThat(unknown.body()).isEmpty();
        assertThat(get("/AAAAAAAAAAAAAAAAAAAAAA/inside.txt", right()).status()).isEqualTo(404);
        RawHttp.Answer options = RawHttp.send(port, "OPTIONS / HTTP/1.1\r\n" + RawHttp.host(port));
        assertThat(options.status()).as("OPTIONS / as without a credential").isEqualTo(200);
        assertThat(options.headers()).doesNotContainKey("www-authenticate");
        RawHttp.Answer foreignHost = RawHttp.send(port, "GET " + base + "/inside.txt HTTP/1.1\r\nHost: evil.example\r\n" + right());
        assertThat(foreignHost.status()).as("the Host check comes first").isIn(400, 421);
    }

    @Test
    void anotherServersCredentialDoesNotOpenThisOne(@TempDir Path other) throws IOException {
        try (ServedVault second = new ServedVault(other, true)) {
            assertThat(second.password()).isNotEqualTo(served.password());
            assertUnauthorized(get(base + "/inside.txt", basic("coffer:" + second.password())));
            int secondPort = second.server.port();
            RawHttp.Answer a = RawHttp.send(secondPort, "GET /" + second.server.secretSegment() + "/ HTTP/1.1\r\n" + RawHttp.host(secondPort)
                    + "\r\n" + right());
            assertUnauthorized(a);
        }
    }

    @Test
    void stoppingWipesTheCredential() throws IOException {
        DavCredential credential = served.server.credential();
        String userColonPassword = "coffer:" + served.password();
        String header = "Basic " + Base64.getEncoder().encodeToString(userColonPassword.getBytes(StandardCharsets.US_ASCII));
        assertThat(credential.accepts(header)).isTrue();
        served.server.close();
        assertThat(credential.accepts(header)).isFalse();
        assertThat(credential.accepts("Basic " + Base64.getEncoder().encodeToString(new byte[userColonPassword.length()])))
                .as("wiped to zeros, which match nothing").isFalse();
    }

    @Test
    void aServerWithoutCredentialServesAsBefore(@TempDir Path other) throws IOException {
        try (ServedVault plain = new ServedVault(other)) {
            int plainPort = plain.server.port();
            assertThat(plain.server.requiresCredential()).isFalse();
            Files.writeString(plain.root.resolve("plain.txt"), "plain");
            RawHttp.Answer a = RawHttp.send(plainPort, "GET /" + plain.server.secretSegment() + "/plain.txt HTTP/1.1\r\n" + RawHttp.host(plainPort));
            assertThat(a.status()).isEqualTo(200);
            assertThat(a.text()).isEqualTo("plain");
            assertThat(a.headers()).doesNotContainKey("www-authenticate");
        }
    }
}
