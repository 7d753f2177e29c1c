package dev.coffer.webdav;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Test helper: WebDAV requests through {@link HttpClient} (HTTP/1.1) to one served tree, with paths
 * relative to its root URL and headers given as name/value pairs.
 */
final class DavClient {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final String root;

    DavClient(String rootUrl) {
        this.root = rootUrl.endsWith("/") ? rootUrl.substring(0, rootUrl.length() - 1) : rootUrl;
    }

    String url(String path) {
        return root + path;
    }

    HttpResponse<byte[]> send(String method, String path, String body, String... headers) throws IOException, InterruptedException {
        return send(method, path, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8), headers);
    }

    HttpResponse<byte[]> send(String method, String path, HttpRequest.BodyPublisher body, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url(path))).method(method, body).timeout(Duration.ofMinutes(10));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    <T> HttpResponse<T> send(HttpRequest.Builder b, HttpResponse.BodyHandler<T> handler) throws IOException, InterruptedException {
        return http.send(b.build(), handler);
    }

    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofMinutes(30));
    }

    static String text(HttpResponse<byte[]> r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    static String lockBody(String scope) {
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?><D:lockinfo xmlns:D=\"DAV:\"><D:lockscope><D:" + scope
                + "/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>test</D:owner></D:lockinfo>";
    }
}
