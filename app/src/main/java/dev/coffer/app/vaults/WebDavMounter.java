package dev.coffer.app.vaults;

import dev.coffer.webdav.OsMount;
import dev.coffer.webdav.OsMountBusyException;
import dev.coffer.webdav.WebDavServer;
import java.io.IOException;
import java.net.BindException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows a vault over WebDAV through frontend-webdav: a loopback {@link WebDavServer} with a secret
 * URL, then, where the system can do it unattended ({@link OsMount}: gio in a desktop session,
 * davfs2 as root), an OS mount of it. If no OS mount is possible, the drive is the URL, which the
 * file manager opens. A server Coffer mounts itself requires an HTTP Basic credential that only the
 * OS mount gets (the mount table shows its URL to other local users); if the OS mount fails, that
 * server stops and the drive is a new server's URL, without a credential. The preferred port is the
 * preferences'; a second vault served at the same
 * time gets a free port, while a port taken by another program is {@link Problem#PORT_IN_USE}.
 *
 * <p>Not responsible for the vault. WebDAV has no "busy" state, so unmounting always ends with the
 * server stopped (clients see it go away); a gio mount is unmounted first, after programs still
 * writing through it have closed their files (up to 30 s, then by force, which {@link #mount}'s
 * drive reports as an error).
 */
public final class WebDavMounter implements Mounter {
    private static final Logger LOG = LoggerFactory.getLogger(WebDavMounter.class);

    private final boolean mountInOs;
    private final OsMounting osMounting;
    private final Set<Integer> portsInUse = ConcurrentHashMap.newKeySet();

    /** How a server is mounted by the OS: {@link OsMount#mount} (tests pass one that fails). */
    interface OsMounting {
        OsMount mount(WebDavServer server) throws IOException;
    }

    /** @param mountInOs also mount the server with the system's WebDAV client where possible */
    public WebDavMounter(boolean mountInOs) {
        this(mountInOs, OsMount::mount);
    }

    WebDavMounter(boolean mountInOs, OsMounting osMounting) {
        this.mountInOs = mountInOs;
        this.osMounting = osMounting;
    }

    @Override
    public MountMethod method() {
        return MountMethod.WEBDAV;
    }

    @Override
    public void checkAvailable() {
        // a loopback server works everywhere; the OS mount is best effort
    }

    @Override
    public Drive mount(Path cleartextRoot, MountRequest request) throws IOException {
        int wanted = request.webDavPort() != 0 && portsInUse.contains(request.webDavPort()) ? 0 : request.webDavPort();
        boolean mountHere = mountInOs && OsMount.canMountHere();
        WebDavServer server = start(cleartextRoot, wanted, mountHere);
        if (!mountHere) {
            return new WebDavDrive(server, null);
        }
        try {
            return new WebDavDrive(server, osMounting.mount(server));
        } catch (IOException e) {
            // The message may name the URL; its secret segment is a key: never in the log.
            LOG.info("the WebDAV drive is only a URL: {}", withoutSecret(String.valueOf(e.getMessage()), server.url()));
        } catch (RuntimeException | Error e) {
            // a credentialed server nobody would close: stop it (which wipes the credential), then fail
            portsInUse.remove(server.port());
            try {
                server.close();
            } catch (IOException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        // Nothing can use the credential: serve the URL alone, at a new secret (a late mount of the old one finds nothing).
        portsInUse.remove(server.port());
        server.close();
        return new WebDavDrive(start(cleartextRoot, wanted, false), null);
    }

    /** Starts a server, with the credential that only an OS mount gets if {@code forOsMount}. */
    private WebDavServer start(Path cleartextRoot, int port, boolean forOsMount) throws IOException {
        WebDavServer server;
        try {
            server = forOsMount ? WebDavServer.startWithCredential(cleartextRoot, port) : WebDavServer.start(cleartextRoot, port);
        } catch (IOException e) {
            if (e instanceof BindException || e.getCause() instanceof BindException) { // Jetty wraps it
                throw new VaultException(Problem.PORT_IN_USE, "127.0.0.1:" + port, e);
            }
            throw e;
        }
        portsInUse.add(server.port());
        return server;
    }

    /** {@code message} with the secret path segment of {@code url} replaced by {@code SECRET}. */
    static String withoutSecret(String message, String url) {
        String secret = URI.create(url).getPath().replace("/", "");
        return secret.isEmpty() ? message : message.replace(secret, "SECRET");
    }

    /** A running server, maybe mounted by the OS. */
    private final class WebDavDrive implements Drive {
        private final WebDavServer server;
        private final OsMount os;
        private volatile boolean mounted = true;

        WebDavDrive(WebDavServer server, OsMount os) {
            this.server = server;
            this.os = os;
        }

        @Override
        public String location() {
            return os != null ? os.where() : server.url();
        }

        @Override
        public URI revealTarget() {
            String where = location();
            return where.startsWith("/") ? Path.of(where).toUri() : URI.create(where);
        }

        @Override
        public MountMethod method() {
            return MountMethod.WEBDAV;
        }

        /**
         * Without {@code force}, an OS mount still written through stays mounted and the server
         * keeps running ({@link Problem#DRIVE_BUSY}): stopping it would drop those writes.
         */
        @Override
        public void unmount(boolean force) throws IOException {
            if (!mounted) {
                return;
            }
            if (os != null && !force) {
                try {
                    os.closeIfIdle(); // while the server still answers: the client uploads what it cached
                } catch (OsMountBusyException e) {
                    throw new VaultException(Problem.DRIVE_BUSY, withoutSecret(String.valueOf(e.getMessage()), server.url()), e);
                }
            }
            try {
                if (os != null && force) {
                    os.closeForcibly();
                }
            } finally {
                mounted = false;
                portsInUse.remove(server.port());
                server.close();
            }
        }

        @Override
        public boolean isMounted() {
            return mounted;
        }
    }
}
