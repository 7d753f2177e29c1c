package dev.coffer.app.os;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CredentialLeaks} finds a password that is there: a JDK HTTP server that accepts one known
 * Basic credential, its password hidden in a file among others, inside a longer base64url run and in
 * a text; and it reports nothing where the password is not.
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
            assertThat(CredentialLeaks.working(url(s), List.of(tmp.resolve("home"))))
                    .containsExactly(dir.resolve("secrets").toString());
            Files.delete(dir.resolve("secrets"));
            assertThat(CredentialLeaks.working(url(s), List.of(tmp.resolve("home"), tmp.resolve("missing")))).isEmpty();
        } finally {
            s.stop(0);
        }
    }

    @Test
    void findsThePasswordInsideALongerRun() throws Exception {
        HttpServer s = server();
        try {
            List<String> found = new ArrayList<>();
            CredentialLeaks scan = CredentialLeaks.ofTexts(url(s), List.of("no password here", "xx-" + PASSWORD + "_more"), found);
            assertThat(found).containsExactly("text");
            assertThat(scan.tried()).isGreaterThan(1);
        } finally {
            s.stop(0);
        }
    }
}
