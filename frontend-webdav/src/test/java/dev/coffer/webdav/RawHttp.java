package dev.coffer.webdav;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Test helper: one HTTP/1.1 request over a plain socket, byte for byte as given (no client
 * normalises the path or sets its own Host), with {@code Connection: close}; the answer's status,
 * headers (lower-case names) and body.
 */
final class RawHttp {
    record Answer(int status, Map<String, String> headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private RawHttp() {}

    /** Sends {@code head} (request line and headers, CRLF-separated, without the blank line) and {@code body}. */
    static Answer send(int port, String head, byte[] body) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            String h = head + "\r\nConnection: close\r\n" + (body.length > 0 ? "Content-Length: " + body.length + "\r\n" : "") + "\r\n";
            out.write(h.getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            return read(s.getInputStream());
        }
    }

    /**
     * Sends {@code request} exactly as given (head, blank line, body: the caller frames it, e.g.
     * chunked), then reads the answer; a write the server cut short (it answered and closed before
     * reading everything) still reads the answer it sent.
     */
    static Answer sendExact(int port, byte[] request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(30_000);
            try {
                OutputStream out = s.getOutputStream();
                out.write(request);
                out.flush();
            } catch (IOException cutShort) {
                // the answer, if any, is already on its way
            }
            return read(s.getInputStream());
        }
    }

    static Answer send(int port, String head) throws IOException {
        return send(port, head, new byte[0]);
    }

    private static Answer read(InputStream in) throws IOException {
        byte[] all = in.readAllBytes();
        String text = new String(all, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IOException("no complete HTTP answer: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int c = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, c).trim().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).trim());
        }
        byte[] body = new byte[all.length - end - 4];
        System.arraycopy(all, end + 4, body, 0, body.length);
        return new Answer(status, headers, body);
    }

    static String host(int port) {
        return "Host: 127.0.0.1:" + port;
    }

}
