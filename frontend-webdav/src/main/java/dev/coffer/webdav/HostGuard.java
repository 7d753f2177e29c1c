package dev.coffer.webdav;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;

/**
 * Decides whether a request may have come from a local WebDAV client rather than from a web page:
 * the {@code Host} header must name a loopback host with the server's port (a DNS-rebinding page
 * sends its own host name), and an {@code Origin} header, which browsers add to cross-site
 * requests, must be absent or the server's own origin.
 *
 * <p>Not responsible for answering the refusal (the servlet does, without detail).
 */
final class HostGuard {
    /** What to answer. */
    enum Verdict { ALLOW, MISDIRECTED, FORBIDDEN }

    private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");

    private final int port;

    HostGuard(int port) {
        this.port = port;
    }

    Verdict check(String host, String origin) {
        if (host == null || !isLocal(host)) {
            return Verdict.MISDIRECTED;
        }
        if (origin != null && !isOwnOrigin(origin)) {
            return Verdict.FORBIDDEN;
        }
        return Verdict.ALLOW;
    }

    /** {@code host[:port]} naming a loopback host with our port (HTTP's default 80 only if we are on 80). */
    boolean isLocal(String hostHeader) {
        String h = hostHeader.trim().toLowerCase(Locale.ROOT);
        String name;
        int p;
        int colon = h.lastIndexOf(':');
        if (colon > h.lastIndexOf(']')) {
            name = h.substring(0, colon);
            try {
                p = Integer.parseInt(h.substring(colon + 1));
            } catch (NumberFormatException e) {
                return false;
            }
        } else {
            name = h;
            p = 80;
        }
        return p == port && LOOPBACK_NAMES.contains(name);
    }

    private boolean isOwnOrigin(String origin) {
        try {
            URI u = new URI(origin.trim());
            if (!"http".equalsIgnoreCase(u.getScheme()) || u.getRawAuthority() == null) {
                return false;
            }
            return u.getRawPath() == null || u.getRawPath().isEmpty() ? isLocal(u.getRawAuthority()) : false;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
