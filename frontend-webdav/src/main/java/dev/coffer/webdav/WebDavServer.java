package dev.coffer.webdav;

import io.milton.config.HttpManagerBuilder;
import io.milton.http.HttpManager;
import io.milton.http.http11.DefaultHttp11ResponseHandler;
import io.milton.http.values.ValueWriters;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntConsumer;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A running WebDAV server for one {@link Path} tree: Jetty 12 bound to 127.0.0.1 only, a Milton
 * {@link HttpManager} for PROPFIND over {@link PathResourceFactory}, Coffer's own methods
 * and locks ({@link DavServlet}), all below a fresh secret URL segment. Jetty streams bodies of any
 * length (64-bit Content-Length, chunked) and stops gracefully. {@link #close} stops it; the tree
 * itself (e.g. the vault's file system) stays open and belongs to the caller.
 *
 * <p>A server started with {@link #startWithCredential} (for a mount Coffer makes itself, where the
 * URL is readable by other local users) also requires HTTP Basic with a per-server password
 * ({@link DavCredential}), which only {@link OsMount} hands on; {@link #close} wipes it.
 *
 * <p>Not responsible for unlocking or locking a vault, or for mounting ({@link OsMount}).
 */
public final class WebDavServer implements AutoCloseable {
    /** Request headers above this many bytes are refused (431). */
    static final int MAX_HEADER_BYTES = 16 * 1024;

    private final Server jetty;
    private final ReadAhead readAhead;
    private final DavTree tree;
    private final DavUrls urls;
    private final int port;
    private final DavCredential credential;

    private WebDavServer(Server jetty, ReadAhead readAhead, DavTree tree, DavUrls urls, int port, DavCredential credential) {
        this.jetty = jetty;
        this.tree = tree;
        this.readAhead = readAhead;
        this.urls = urls;
        this.port = port;
        this.credential = credential;
    }

    /**
     * Starts serving {@code root} on 127.0.0.1:{@code port} (0 picks a free port).
     *
     * @throws java.net.BindException if the port is in use
     */
    public static WebDavServer start(Path root, int port) throws IOException {
        return start(root, port, null);
    }

    /**
     * As {@link #start}, but every request below the secret segment must also carry the server's own
     * HTTP Basic credential (else 401), which {@link OsMount#mount} hands to the OS client.
     *
     * @throws java.net.BindException if the port is in use
     */
    public static WebDavServer startWithCredential(Path root, int port) throws IOException {
        return start(root, port, DavCredential.random());
    }

    private static WebDavServer start(Path root, int port, DavCredential credential) throws IOException {
        return start(root, port, credential, startedPort -> {});
    }

    /**
     * As the public starts, with {@code credential} (null: none), calling {@code afterJettyStart} with the
     * bound port once Jetty runs (tests: a failure there must still stop Jetty and wipe the credential).
     */
    static WebDavServer start(Path root, int port, DavCredential credential, IntConsumer afterJettyStart) throws IOException {
        DavUrls urls = DavUrls.random();
        DavTree tree = new DavTree(root, urls);
        tree.staging().sweep(); // what a server killed mid-request left
        tree.giveBackLegacyAsidesInRoot();
        LockManager locks = new LockManager();
        Preconditions pre = new Preconditions(root, locks, urls);
        LockMethods lockMethods = new LockMethods(tree, locks, pre);

        QueuedThreadPool threads = new QueuedThreadPool(64, 4);
        threads.setName("coffer-webdav");
        threads.setDaemon(true);
        Server server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setRequestHeaderSize(MAX_HEADER_BYTES);
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(InetAddress.getLoopbackAddress().getHostAddress());
        connector.setPort(port);
        connector.setIdleTimeout(120_000);
        server.addConnector(connector);
        server.setStopTimeout(5_000);
        server.setStopAtShutdown(false);

        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.setAllowNullPathInContext(true);
        server.setHandler(context);
        server.setErrorHandler(new BareErrors());
        context.setErrorHandler(new BareErrors());
        ReadAhead readAhead = null;
        try {
            server.start();
            int actualPort = connector.getLocalPort();
            afterJettyStart.accept(actualPort);
            readAhead = ReadAhead.perCore();
            DavServlet servlet = new DavServlet(tree, new HostGuard(actualPort), milton(tree, locks, lockMethods), locks, pre, lockMethods,
                    readAhead, credential);
            context.getServletHandler().addServletWithMapping(new ServletHolder(servlet), "/*");
            return new WebDavServer(server, readAhead, tree, urls, actualPort, credential);
        } catch (IOException | RuntimeException | Error e) {
            // nothing may keep running, or keep the credential, once start fails
            stopQuietly(server);
            if (readAhead != null) {
                readAhead.close();
            }
            wipe(credential);
            throw e;
        } catch (Exception e) {
            stopQuietly(server);
            wipe(credential);
            throw new IOException("cannot start the WebDAV server", e);
        }
    }

    private static HttpManager milton(DavTree tree, LockManager locks, LockMethods lockMethods) {
        HttpManagerBuilder b = new HttpManagerBuilder();
        b.setResourceFactory(new PathResourceFactory(tree));
        b.setEnableCookieAuth(false); // else Milton writes signing keys to ${java.io.tmpdir}/keys.txt
        b.setEnableBasicAuth(false);
        b.setEnableDigestAuth(false);
        b.setEnableFormAuth(false);
        b.setEnableCompression(false); // compression buffers whole bodies
        b.setBuffering(DefaultHttp11ResponseHandler.BUFFERING.never);
        b.setEnabledJson(false);
        b.seteTagGenerator(r -> r instanceof PathResource pr ? pr.etag() : null);
        b.setExtraPropertySources(List.of(new DeadPropertySource(), new LockPropertySource(locks, lockMethods)));
        ValueWriters writers = new ValueWriters();
        b.setValueWriters(writers);
        b.setPropFindXmlGenerator(new MultistatusWriter(writers));
        return b.buildHttpManager();
    }

    /** The URL of the served root, e.g. {@code http://127.0.0.1:PORT/SECRET/}. */
    public String url() {
        return "http://127.0.0.1:" + port + urls.rootHref();
    }

    public int port() {
        return port;
    }

    /** The secret path segment (for OS mount commands that take host, port and path apart). */
    public String secretSegment() {
        return urls.secret();
    }

    /** Whether requests must carry the server's HTTP Basic credential ({@link #startWithCredential}). */
    public boolean requiresCredential() {
        return credential != null;
    }

    /** The credential an OS client must send, or null if the server requires none. */
    DavCredential credential() {
        return credential;
    }

    /** Blocks until the server has stopped (by {@link #close}, e.g. from a shutdown hook). */
    public void awaitStop() throws InterruptedException {
        jetty.join();
    }

    /** Stops accepting requests, lets running ones finish (up to 5 s), stops, and removes the staging folder. */
    @Override
    public void close() throws IOException {
        try {
            jetty.stop();
        } catch (Exception e) {
            throw new IOException("stopping the WebDAV server failed", e);
        } finally {
            try {
                tree.staging().close();
                readAhead.close();
            } finally {
                wipe(credential); // whatever failed before: the credential must not outlive the server
            }
        }
    }

    private static void wipe(DavCredential credential) {
        if (credential != null) {
            credential.wipe();
        }
    }

    private static void stopQuietly(Server s) {
        try {
            s.stop();
        } catch (Exception ignored) {
            // it did not start; nothing more to release
        }
    }
}
