package dev.coffer.webdav;

/**
 * One granted WebDAV lock: its token, the path it was taken on, its depth and scope, the client's
 * owner XML (echoed back verbatim), and when it expires.
 *
 * <p>Not responsible for conflict rules ({@link LockManager}).
 */
record DavLock(String token, DavPath root, boolean infinite, boolean exclusive, String ownerXml, long timeoutSeconds,
        long expiresAtNanos) {

    /** True if this lock covers {@code p}: its own root, or anything below it for a depth-infinity lock. */
    boolean covers(DavPath p) {
        return p.equals(root) || (infinite && p.startsWith(root));
    }

    long secondsLeft(long nowNanos) {
        return Math.max(0, (expiresAtNanos - nowNanos) / 1_000_000_000L);
    }
}
