package dev.coffer.app.os;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CredentialLeaks} finds a password that is there: a JDK HTTP server that accepts one known
 * Basic credential, its password hidden in a file among others, inside a longer base64url run, and
 * as an HTTP debug log shows it ({@code Authorization: Basic base64(coffer:PASSWORD)}, also inside
 * a longer base64 run); it reports nothing where the password is not, and says how much it read.
 */
class CredentialLeaksTest {
    private static final String PASSWORD = "Zq3_x-8kPp0LmN7vR2tY5wA1cE4gH6jU";

    @TempDir
    Path tmp;

    private static HttpServer server() throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        String expected = "Basic " + Base64.getEncoder().encodeToString(("coffer:" + PASSWORD).getBytes(StandardCharsets.US_ASCII));
        s.createContext("/", exchange -> {
            boolean ok = expected.equals(exchange.getRequestHeaders().getFirst("Authorization"));
            exchange.sendResponseHeaders(ok ? 207 : 401, -1);
            exchange.close();
        });
        s.start();
        return s;
    }

    private static String url(HttpServer s) {
        return "http://127.0.0.1:" + s.getAddress().getPort() + "/";
    }

    @Test
    void findsThePasswordInAFileUnderAFolder() throws Exception {
        assertThat(PASSWORD).hasSize(CredentialLeaks.PASSWORD_LENGTH);
        HttpServer s = server();
        try {
            Path dir = Files.createDirectories(tmp.resolve("home/.config/app"));
            Files.writeString(dir.resolve("other.conf"), "token=" + "A".repeat(40) + "\n");
            Files.writeString(dir.resolve("secrets"), "http://127.0.0.1/x coffer " + PASSWORD + "\n");
            CredentialLeaks.Result withSecret = CredentialLeaks.working(url(s), List.of(tmp.resolve("home")));
            assertThat(withSecret.found()).containsExactly(dir.resolve("secrets").toString());
            Files.delete(dir.resolve("secrets"));
            CredentialLeaks.Result without = CredentialLeaks.working(url(s), List.of(tmp.resolve("home"), tmp.resolve("missing")));
            assertThat(without.found()).isEmpty();
            // both files under home, /proc/mounts and the processes' entries were read
            assertThat(without.filesRead()).as(without.toString()).isGreaterThan(3);
            assertThat(without.tokensTried()).as(without.toString()).isGreaterThan(1);
        } finally {
            s.stop(0);
        }
    }

    @Test
    void findsThePasswordInsideALongerRun() throws Exception {
        HttpServer s = server();
        try {
            CredentialLeaks.Result scan = CredentialLeaks.ofTexts(url(s), List.of("no password here", "xx-" + PASSWORD + "_more"));
            assertThat(scan.found()).containsExactly("text");
            assertThat(scan.tokensTried()).isGreaterThan(1);
        } finally {
            s.stop(0);
        }
    }

    @Test
    void findsThePasswordInABasicAuthorizationHeaderOfADebugLog() throws Exception {
        String header = Base64.getEncoder().encodeToString(("coffer:" + PASSWORD).getBytes(StandardCharsets.US_ASCII));
        assertThat(header).hasSize(CredentialLeaks.HEADER_LENGTH).doesNotContain(PASSWORD);
        HttpServer s = server();
        try {
            Path log = Files.createDirectories(tmp.resolve("logs")).resolve("http-debug.log");
            Files.writeString(log, "DEBUG > PROPFIND /x/ HTTP/1.1\nDEBUG > Authorization: Basic " + header + "\nDEBUG > Depth: 0\n");
            assertThat(CredentialLeaks.working(url(s), List.of(tmp.resolve("logs"))).found()).containsExactly(log.toString());

            // inside a longer standard-base64 run (a header in a dump without separators)
            String other = Base64.getEncoder().encodeToString(("someone:" + "B".repeat(32)).getBytes(StandardCharsets.US_ASCII));
            CredentialLeaks.Result scan = CredentialLeaks.ofTexts(url(s), List.of("Basic " + other, "+/x" + header + "AAAA/+"));
            assertThat(scan.found()).containsExactly("text");
        } finally {
            s.stop(0);
        }
    }
}
