package dev.coffer.webdav;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * GET and HEAD of files, streamed from a {@link FileChannel} (read ahead by {@link ReadAhead}) with {@code ETag}, {@code Last-Modified}
 * and one byte range ({@code Range: bytes=a-b}, {@code a-}, {@code -n}; 206, or 416 when it lies
 * beyond the end; several ranges get the whole file, as RFC 9110 allows), honouring
 * {@code If-Match}, {@code If-None-Match}, {@code If-Modified-Since} and {@code If-Range}. Also OPTIONS.
 *
 * <p>Not responsible for PROPFIND ({@link PropfindMethod}, Milton) or folders' content (a folder has no GET body: 405).
 */
final class ReadMethods {
    static final String ALLOW = "OPTIONS, GET, HEAD, PUT, DELETE, MKCOL, COPY, MOVE, PROPFIND, PROPPATCH, LOCK, UNLOCK";
    private final DavTree tree;
    private final ReadAhead readAhead;

    ReadMethods(DavTree tree, ReadAhead readAhead) {
        this.tree = tree;
        this.readAhead = readAhead;
    }

    void options(HttpServletResponse resp) {
        resp.setStatus(200);
        resp.setHeader("DAV", "1, 2");
        resp.setHeader("MS-Author-Via", "DAV");
        resp.setHeader("Allow", ALLOW);
        resp.setContentLength(0);
    }

    void get(HttpServletRequest req, HttpServletResponse resp, DavPath p, boolean head) throws IOException {
        Optional<BasicFileAttributes> a = tree.attributes(p);
        if (a.isEmpty()) {
            resp.setStatus(404);
            resp.setContentLength(0);
            return;
        }
        if (a.get().isDirectory()) {
            resp.setStatus(405);
            resp.setHeader("Allow", ALLOW.replace("GET, HEAD, PUT, ", ""));
            resp.setContentLength(0);
            return;
        }
        long size = a.get().size();
        String etag = Etags.of(a.get());
        long modified = a.get().lastModifiedTime().toMillis();
        resp.setHeader("ETag", etag);
        resp.setDateHeader("Last-Modified", modified);
        resp.setHeader("Accept-Ranges", "bytes");
        String ifMatch = req.getHeader("If-Match");
        if (ifMatch != null && !listContains(ifMatch, etag)) {
            resp.setStatus(412);
            resp.setContentLength(0);
            return;
        }
        String ifNoneMatch = req.getHeader("If-None-Match");
        long ims = dateHeader(req, "If-Modified-Since");
        if ((ifNoneMatch != null && listContains(ifNoneMatch, etag)) || (ifNoneMatch == null && ims >= 0 && modified / 1000 <= ims / 1000)) {
            resp.setStatus(304);
            return;
        }
        long start = 0;
        long length = size;
        String range = req.getHeader("Range");
        if (range != null && rangeApplies(req, etag, modified)) {
            long[] r = parseRange(range, size);
            if (r == null) {
                resp.setStatus(416);
                resp.setHeader("Content-Range", "bytes */" + size);
                resp.setContentLength(0);
                return;
            }
            if (r.length == 2) {
                start = r[0];
                length = r[1] - r[0] + 1;
                resp.setStatus(206);
                resp.setHeader("Content-Range", "bytes " + r[0] + "-" + r[1] + "/" + size);
            }
        }
        resp.setContentType(FileResource.contentType(p.name()));
        resp.setContentLengthLong(length);
        if (head) {
            return;
        }
        try (FileChannel ch = FileChannel.open(tree.file(p), StandardOpenOption.READ); OutputStream out = resp.getOutputStream()) {
            readAhead.copy(ch, start, length, out);
        }
    }

    /** {start, end} inclusive; an empty array for a header to ignore (whole file); null for unsatisfiable. */
    static long[] parseRange(String header, long size) {
        String h = header.trim();
        if (!h.regionMatches(true, 0, "bytes=", 0, 6) || h.indexOf(',') >= 0) {
            return new long[0];
        }
        String spec = h.substring(6).trim();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return new long[0];
        }
        try {
            String a = spec.substring(0, dash).trim();
            String b = spec.substring(dash + 1).trim();
            if (a.isEmpty()) {
                long suffix = Long.parseLong(b);
                if (suffix <= 0 || size == 0) {
                    return null;
                }
                return new long[] {Math.max(0, size - suffix), size - 1};
            }
            long start = Long.parseLong(a);
            long end = b.isEmpty() ? size - 1 : Math.min(Long.parseLong(b), size - 1);
            if (start < 0 || (!b.isEmpty() && Long.parseLong(b) < start)) {
                return new long[0]; // syntactically invalid: ignored (RFC 9110 14.2)
            }
            return start >= size ? null : new long[] {start, end};
        } catch (NumberFormatException e) {
            return new long[0];
        }
    }

    private static boolean rangeApplies(HttpServletRequest req, String etag, long modified) {
        String ifRange = req.getHeader("If-Range");
        if (ifRange == null) {
            return true;
        }
        if (ifRange.trim().startsWith("\"")) {
            return ifRange.trim().equals(etag);
        }
        long d = dateHeader(req, "If-Range");
        return d >= 0 && modified / 1000 == d / 1000;
    }

    private static long dateHeader(HttpServletRequest req, String name) {
        try {
            return req.getDateHeader(name);
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }

    private static boolean listContains(String header, String etag) {
        for (String t : header.split(",")) {
            String s = t.trim();
            if (s.equals("*") || s.equals(etag) || s.equals("W/" + etag)) {
                return true;
            }
        }
        return false;
    }
}
