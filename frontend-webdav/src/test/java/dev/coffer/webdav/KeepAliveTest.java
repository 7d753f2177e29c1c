package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request refused before its body was read (PROPPATCH and PUT on a locked file: 423) leaves the
 * connection usable for the client's next request, or says {@code Connection: close}: a client
 * that reuses a kept-alive connection must never get no answer at all. The body is sent late, after
 * the headers, as a slow client would.
 */
class KeepAliveTest {
    @TempDir
    Path tmp;

    @Test
    void refusedRequestsLeaveTheConnectionUsable() throws Exception {
        try (ServedVault served = new ServedVault(tmp)) {
            DavClient dav = new DavClient(served.url());
            assertThat(dav.send("PUT", "/l.txt", "x").statusCode()).isEqualTo(201);
            assertThat(dav.send("LOCK", "/l.txt", DavClient.lockBody("exclusive")).statusCode()).isEqualTo(200);
            int port = served.server.port();
            String base = served.url().replaceFirst("^http://[^/]+", "");
            byte[] proppatch = ("<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\"><D:set><D:prop><z xmlns=\"urn:z\">1</z>"
                    + "</D:prop></D:set></D:propertyupdate>").getBytes(StandardCharsets.UTF_8);
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                s.setSoTimeout(30_000);
                for (String method : new String[] {"PROPPATCH", "PUT"}) {
                    String head = method + " " + base + "l.txt HTTP/1.1\r\n" + RawHttp.host(port) + "\r\nContent-Length: " + proppatch.length
                            + "\r\n\r\n";
                    s.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
                    s.getOutputStream().flush();
                    Thread.sleep(200); // the body comes late
                    s.getOutputStream().write(proppatch);
                    s.getOutputStream().flush();
                    String answer = readAnswer(s.getInputStream());
                    assertThat(answer).startsWith("HTTP/1.1 423");
                    assertThat(answer.toLowerCase(Locale.ROOT)).doesNotContain("connection: close");
                }
                OutputStream out = s.getOutputStream();
                out.write(("GET " + base + "l.txt HTTP/1.1\r\n" + RawHttp.host(port) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                assertThat(readAnswer(s.getInputStream())).as("the next request on the same connection").startsWith("HTTP/1.1 200");
            }
        }
    }

    /** One answer with a Content-Length body, read from a kept-alive connection. */
    private static String readAnswer(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed without an answer after: " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        String h = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : h.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        return h + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
