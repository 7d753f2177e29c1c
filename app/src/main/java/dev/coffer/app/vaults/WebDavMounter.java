package dev.coffer.app.vaults;

import dev.coffer.webdav.OsMount;
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
 * file manager opens. The preferred port is the preferences'; a second vault served at the same
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
    private final Set<Integer> portsInUse = ConcurrentHashMap.newKeySet();

    /** @param mountInOs also mount the server with the system's WebDAV client where possible */
    public WebDavMounter(boolean mountInOs) {
        this.mountInOs = mountInOs;
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
        WebDavServer server;
        try {
            server = WebDavServer.start(cleartextRoot, wanted);
        } catch (IOException e) {
            if (e instanceof BindException || e.getCause() instanceof BindException) { // Jetty wraps it
                throw new VaultException(Problem.PORT_IN_USE, "127.0.0.1:" + wanted, e);
            }
            throw e;
        }
        portsInUse.add(server.port());
        OsMount os = null;
        if (mountInOs && OsMount.canMountHere()) {
            try {
                os = OsMount.mount(server);
            } catch (IOException e) {
                LOG.info("the WebDAV drive is only a URL: {}", e.getMessage());
            }
        }
        return new WebDavDrive(server, os);
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

        @Override
        public void unmount(boolean force) throws IOException {
            if (!mounted) {
                return;
            }
            try {
                if (os != null) {
                    os.close(); // while the server still answers: the client uploads what it cached
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
