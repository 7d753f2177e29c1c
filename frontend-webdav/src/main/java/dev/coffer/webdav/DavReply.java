package dev.coffer.webdav;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A complete answer of one of Coffer's own methods: status, headers and an optional XML body,
 * written in one go. Refusals carry no detail beyond RFC 4918's precondition elements.
 *
 * <p>Not responsible for deciding the answer (the method classes are).
 */
final class DavReply {
    private final int status;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private String xmlBody;

    private DavReply(int status) {
        this.status = status;
    }

    static DavReply status(int status) {
        return new DavReply(status);
    }

    static DavReply of(DavError e) {
        DavReply r = new DavReply(e.status());
        r.xmlBody = e.errorXml();
        return r;
    }

    DavReply header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    DavReply xml(String body) {
        this.xmlBody = body;
        return this;
    }

    int statusCode() {
        return status;
    }

    void writeTo(HttpServletResponse resp) throws IOException {
        resp.setStatus(status);
        headers.forEach(resp::setHeader);
        if (xmlBody == null) {
            resp.setContentLength(0);
            return;
        }
        byte[] b = xmlBody.getBytes(StandardCharsets.UTF_8);
        resp.setContentType("application/xml; charset=utf-8");
        resp.setContentLength(b.length);
        try (OutputStream out = resp.getOutputStream()) {
            out.write(b);
        }
    }
}
