package dev.coffer.webdav;

import io.milton.http.HttpManager;
import io.milton.servlet.ServletRequest;
import io.milton.servlet.ServletResponse;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The front door of every request: {@link HostGuard} (421/403, no detail), the method list (405),
 * the secret path segment and path validation ({@link DavUrls}; anything else is a bare 404, except
 * OPTIONS on {@code /}, which Windows' client sends first and which names no file), the server's
 * HTTP Basic credential if it has one ({@link DavCredential}; 401 with no body, checked only once
 * the segment is right, so a client without it learns nothing but that the segment exists), the
 * size limit of XML bodies (413), then dispatch: Coffer's own methods for everything that reads
 * content or changes the tree, and PROPFIND (Depth 0 or 1 only; infinity is refused with
 * {@code propfind-finite-depth}; the body must be well-formed XML): {@link PropfindMethod} streams
 * the answer to requests for RFC 4918 and dead properties, Milton answers requests naming other
 * {@code DAV:} properties ({@link PropfindRequest} decides; written by {@link MultistatusWriter}). File system errors become plain status codes; no
 * path or exception text reaches the client.
 *
 * <p>Not responsible for the methods themselves or for the HTTP server's lifecycle ({@link WebDavServer}).
 */
final class DavServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DavServlet.class);
    static final int MAX_XML_BODY = 1 << 20;
    /** The most of a failed upload's body read and dropped so that its client hears the status (a second or so locally). */
    static final long MAX_DISCARDED_UPLOAD = 256L << 20;
    private static final Set<String> METHODS = Set.of("OPTIONS", "GET", "HEAD", "PUT", "DELETE", "MKCOL", "COPY", "MOVE",
            "PROPFIND", "PROPPATCH", "LOCK", "UNLOCK");

    private final transient DavTree tree;
    private final transient HostGuard guard;
    private final transient HttpManager milton;
    private final transient ReadMethods reads;
    private final transient WriteMethods writes;
    private final transient LockMethods lockMethods;
    private final transient PropPatchMethod propPatch;
    private final transient PropfindMethod propfind;
    private final transient DavCredential credential;

    DavServlet(DavTree tree, HostGuard guard, HttpManager milton, LockManager locks, Preconditions pre, LockMethods lockMethods,
            ReadAhead readAhead, DavCredential credential) {
        this.tree = tree;
        this.credential = credential;
        this.guard = guard;
        this.milton = milton;
        this.lockMethods = lockMethods;
        this.reads = new ReadMethods(tree, readAhead);
        this.writes = new WriteMethods(tree, locks, pre);
        this.propPatch = new PropPatchMethod(tree, pre);
        this.propfind = new PropfindMethod(tree, new LiveProperties(locks, lockMethods));
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        switch (guard.check(req.getHeader("Host"), req.getHeader("Origin"))) {
            case MISDIRECTED -> {
                bare(resp, 421);
                return;
            }
            case FORBIDDEN -> {
                bare(resp, 403);
                return;
            }
            default -> {
                // a local client
            }
        }
        String method = req.getMethod();
        if (!METHODS.contains(method)) {
            resp.setHeader("Allow", ReadMethods.ALLOW);
            bare(resp, 405);
            return;
        }
        ServletContextRequest jettyRequest = ServletContextRequest.getServletContextRequest(req);
        if (jettyRequest != null && jettyRequest.getHttpURI().getFragment() != null) {
            bare(resp, 400); // a fragment is not part of a request target (RFC 9112 3.2)
            return;
        }
        if ("OPTIONS".equals(method) && "/".equals(req.getRequestURI())) {
            reads.options(resp); // Windows' WebDAV client probes the server root before the share path
            return;
        }
        Optional<DavPath> path = tree.urls().fromRawPath(req.getRequestURI());
        if (path.isEmpty()) {
            bare(resp, 404);
            return;
        }
        if (credential != null && !credential.accepts(req.getHeader("Authorization"))) {
            finishBody(req, resp);
            resp.setHeader("WWW-Authenticate", "Basic realm=\"Coffer\"");
            bare(resp, 401);
            return;
        }
        try {
            dispatch(req, resp, method, path.get());
        } catch (BodyTooLargeException e) {
            bare(resp, 413);
        } catch (IOException | RuntimeException e) {
            LOG.debug("{} failed: {}", method, e.getClass().getName());
            if (!resp.isCommitted()) {
                resp.reset();
                if ("PUT".equals(method)) {
                    discardUpload(req, resp);
                }
                bare(resp, statusFor(e));
            } else {
                // The status is sent; Jetty aborts the response. Quietly: Jetty logs any other failure
                // at WARN with the request's URI, which holds the server's secret segment and a
                // cleartext name. Only the kind goes on (a file system error's message names a path).
                throw new ResponseAborted(e.getClass().getName());
            }
        }
    }

    /** A response that failed after it started: Jetty aborts it and logs it at DEBUG only (a {@code QuietException}). */
    static final class ResponseAborted extends IOException implements org.eclipse.jetty.io.QuietException {
        private static final long serialVersionUID = 1L;

        ResponseAborted(String kind) {
            super("response failed after it started: " + kind);
        }
    }

    private void dispatch(HttpServletRequest req, HttpServletResponse resp, String method, DavPath p) throws IOException {
        NameForm form = NameForm.forUserAgent(req.getHeader("User-Agent"));
        switch (method) {
            case "OPTIONS" -> reads.options(resp);
            case "GET" -> reads.get(req, resp, p, false);
            case "HEAD" -> reads.get(req, resp, p, true);
            case "PUT" -> reply(req, resp, writes.put(req, p));
            case "DELETE" -> reply(req, resp, writes.delete(req, p));
            case "MKCOL" -> reply(req, resp, writes.mkcol(req, p));
            case "COPY" -> reply(req, resp, writes.copyOrMove(req, p, false));
            case "MOVE" -> reply(req, resp, writes.copyOrMove(req, p, true));
            case "LOCK" -> lockMethods.lock(req, p, readBody(req), form).writeTo(resp);
            case "UNLOCK" -> reply(req, resp, lockMethods.unlock(req, p));
            case "PROPFIND" -> propfind(req, resp, p, form);
            case "PROPPATCH" -> proppatch(req, resp, p, form);
            default -> bare(resp, 405);
        }
    }

    private void propfind(HttpServletRequest req, HttpServletResponse resp, DavPath p, NameForm form) throws IOException {
        String depth = req.getHeader("Depth");
        if (depth == null || !(depth.equals("0") || depth.equals("1"))) {
            DavReply.of(DavError.withCondition(403, "<D:propfind-finite-depth/>")).writeTo(resp);
            return;
        }
        Optional<BasicFileAttributes> attrs = tree.attributes(p);
        if (attrs.isEmpty()) {
            bare(resp, 404);
            return;
        }
        byte[] body = readBody(req);
        Optional<PropfindRequest> ours;
        try {
            ours = PropfindRequest.parse(body);
        } catch (IOException e) {
            bare(resp, 400);
            return;
        }
        if (ours.isPresent()) {
            try {
                propfind.propfind(resp, p, attrs.get(), depth.equals("1"), ours.get(), form);
            } catch (NoSuchFileException e) {
                if (resp.isCommitted() || tree.attributes(p).isPresent()) {
                    throw e;
                }
                resp.reset();
                bare(resp, 404); // moved or deleted while it was listed
            }
        } else {
            milton.process(new ServletRequest(new BufferedBody(req, body), getServletContext()), new ServletResponse(new DavLevel(resp)));
        }
    }

    private void proppatch(HttpServletRequest req, HttpServletResponse resp, DavPath p, NameForm form) throws IOException {
        Optional<DavReply> refused = propPatch.refusal(p, req.getHeader("If"));
        if (refused.isPresent()) {
            reply(req, resp, refused.get()); // before the body: a refused client need not send it
            return;
        }
        propPatch.proppatch(p, req.getHeader("If"), readBody(req), form).writeTo(resp);
    }

    private static byte[] readBody(HttpServletRequest req) throws IOException {
        if (req.getContentLengthLong() > MAX_XML_BODY) {
            throw new BodyTooLargeException();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = req.getInputStream(); // left open: the container owns it, and finishBody looks at what is left
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf)) >= 0) {
            out.write(buf, 0, n);
            if (out.size() > MAX_XML_BODY) {
                throw new BodyTooLargeException();
            }
        }
        return out.toByteArray();
    }

    /** Sends a reply of a method that may have left the request body unread ({@link #finishBody}). */
    private static void reply(HttpServletRequest req, HttpServletResponse resp, DavReply r) throws IOException {
        finishBody(req, resp);
        r.writeTo(resp);
    }

    /**
     * Before answering a request whose body may not have been read (a PUT or PROPPATCH refused with
     * 412 or 423): reads what is left of a small body, so the connection can carry the client's next
     * request; a large or expected-to-continue body closes the connection instead. Without this the
     * server may close a connection the client has already reused for its next request, which then
     * fails with no answer at all.
     */
    private static void finishBody(HttpServletRequest req, HttpServletResponse resp) {
        if (resp.isCommitted()) {
            return;
        }
        String expect = req.getHeader("Expect");
        if (req.getContentLengthLong() > MAX_XML_BODY || (expect != null && expect.toLowerCase(Locale.ROOT).contains("100-continue"))) {
            resp.setHeader("Connection", "close");
            return;
        }
        try {
            InputStream in = req.getInputStream();
            byte[] buf = new byte[8192];
            long left = MAX_XML_BODY;
            int n;
            while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) >= 0) {
                left -= n;
            }
            if (left == 0 && in.read() >= 0) {
                resp.setHeader("Connection", "close");
            }
        } catch (IOException | IllegalStateException e) {
            resp.setHeader("Connection", "close");
        }
    }

    /**
     * After an upload failed part way (a disk that filled during a chunked PUT): reads and drops the
     * rest of its body, up to {@link #MAX_DISCARDED_UPLOAD}, so that a client that sends the whole body
     * before it reads the answer (Java's HTTP client, WebDAV clients) gets the status instead of a
     * broken connection (the JDK's client saw "Broken pipe" and no 507 when the server closed with
     * megabytes unread); past that, or if the body cannot be read, the connection closes.
     */
    private static void discardUpload(HttpServletRequest req, HttpServletResponse resp) {
        try {
            InputStream in = req.getInputStream();
            byte[] buf = new byte[64 * 1024];
            long left = MAX_DISCARDED_UPLOAD;
            int n;
            while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) >= 0) {
                left -= n;
            }
            if (left <= 0) {
                resp.setHeader("Connection", "close");
            }
        } catch (IOException | IllegalStateException e) {
            resp.setHeader("Connection", "close");
        }
    }

    private static int statusFor(Exception e) {
        if (e instanceof org.eclipse.jetty.io.EofException) {
            return 400; // the client's body ended early (it closed or reset): nothing was changed
        }
        if (e instanceof NoSuchFileException) {
            return 409;
        } else if (e instanceof FileAlreadyExistsException || e instanceof DirectoryNotEmptyException) {
            return 409;
        } else if (e instanceof AccessDeniedException || e instanceof java.nio.file.ReadOnlyFileSystemException) {
            return 403;
        } else if (e instanceof FileSystemException f && f.getReason() != null
                && (f.getReason().toLowerCase(java.util.Locale.ROOT).contains("name too long")
                        || f.getReason().toLowerCase(java.util.Locale.ROOT).contains("invalid name"))) {
            return 400; // a name the vault cannot store (over 255 bytes, reserved): the request's fault
        } else if (diskFull(e)) {
            return 507;
        }
        return 500;
    }

    /**
     * A full disk or quota, by the system's message (kept English by the application), anywhere in
     * the causes: a write that fails reaches here as a plain IOException, often wrapped by the vault.
     */
    private static boolean diskFull(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = String.valueOf(t.getMessage()).toLowerCase(java.util.Locale.ROOT);
            if (m.contains("no space left") || m.contains("disk quota exceeded")) {
                return true;
            }
        }
        return false;
    }

    private static void bare(HttpServletResponse resp, int status) {
        resp.setStatus(status);
        resp.setContentLength(0);
    }

    /** An XML body over {@link #MAX_XML_BODY}. */
    private static final class BodyTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;
    }

    /** Milton's free edition announces DAV level 1 only; the locks here are Coffer's, so it is 1 and 2. */
    private static final class DavLevel extends HttpServletResponseWrapper {
        DavLevel(HttpServletResponse resp) {
            super(resp);
        }

        @Override
        public void setHeader(String name, String value) {
            super.setHeader(name, "DAV".equalsIgnoreCase(name) ? "1, 2" : value);
        }

        @Override
        public void addHeader(String name, String value) {
            super.addHeader(name, "DAV".equalsIgnoreCase(name) ? "1, 2" : value);
        }
    }

    /** The request with its (size-checked) body read ahead, for Milton. */
    private static final class BufferedBody extends HttpServletRequestWrapper {
        private final byte[] body;

        BufferedBody(HttpServletRequest req, byte[] body) {
            super(req);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("blocking only");
                }
            };
        }
    }
}
