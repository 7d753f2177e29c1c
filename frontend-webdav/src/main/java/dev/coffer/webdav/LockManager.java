package dev.coffer.webdav;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * The table of WebDAV write locks (RFC 4918 section 6-7), kept in memory: locks end with the
 * server, which is what clients expect of a restarted server. Grants exclusive and shared locks of
 * depth 0 or infinity when they do not conflict with locks on the same resource, on an ancestor
 * (depth infinity) or, for a depth-infinity request, on a descendant; refreshes and releases them
 * by token; forgets expired ones lazily. Timeouts are capped at {@link #MAX_TIMEOUT_SECONDS}.
 *
 * <p>Not responsible for parsing lock requests or for deciding which request needs which token
 * ({@link Preconditions}).
 */
final class LockManager {
    static final long MAX_TIMEOUT_SECONDS = 3600;
    static final long DEFAULT_TIMEOUT_SECONDS = 3600;

    private final Map<String, DavLock> byToken = new HashMap<>();
    private final LongSupplier nanoClock;

    LockManager() {
        this(System::nanoTime);
    }

    LockManager(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** A new lock, or empty if an existing lock conflicts. */
    synchronized Optional<DavLock> lock(DavPath path, boolean infinite, boolean exclusive, String ownerXml, long timeoutSeconds) {
        expire();
        for (DavLock l : byToken.values()) {
            boolean overlaps = l.covers(path) || (infinite && l.root().startsWith(path));
            if (overlaps && (exclusive || l.exclusive())) {
                return Optional.empty();
            }
        }
        long t = clamp(timeoutSeconds);
        DavLock lock = new DavLock("opaquelocktoken:" + UUID.randomUUID(), path, infinite, exclusive, ownerXml, t,
                nanoClock.getAsLong() + t * 1_000_000_000L);
        byToken.put(lock.token(), lock);
        return Optional.of(lock);
    }

    /** Refreshes the lock with this token if it covers {@code path}. */
    synchronized Optional<DavLock> refresh(String token, DavPath path, long timeoutSeconds) {
        expire();
        DavLock l = byToken.get(token);
        if (l == null || !l.covers(path)) {
            return Optional.empty();
        }
        long t = clamp(timeoutSeconds);
        DavLock refreshed = new DavLock(l.token(), l.root(), l.infinite(), l.exclusive(), l.ownerXml(), t,
                nanoClock.getAsLong() + t * 1_000_000_000L);
        byToken.put(token, refreshed);
        return Optional.of(refreshed);
    }

    /** Releases the lock with this token if it covers {@code path}; false if there is no such lock. */
    synchronized boolean unlock(String token, DavPath path) {
        expire();
        DavLock l = byToken.get(token);
        if (l == null || !l.covers(path)) {
            return false;
        }
        byToken.remove(token);
        return true;
    }

    /** The locks that cover {@code path}. */
    synchronized List<DavLock> covering(DavPath path) {
        expire();
        List<DavLock> out = new ArrayList<>();
        for (DavLock l : byToken.values()) {
            if (l.covers(path)) {
                out.add(l);
            }
        }
        return out;
    }

    /** The locks taken on {@code path} or anything below it. */
    synchronized List<DavLock> rootedAtOrBelow(DavPath path) {
        expire();
        List<DavLock> out = new ArrayList<>();
        for (DavLock l : byToken.values()) {
            if (l.root().startsWith(path)) {
                out.add(l);
            }
        }
        return out;
    }

    /** The lock with this token, if it is current. */
    synchronized Optional<DavLock> byToken(String token) {
        expire();
        return Optional.ofNullable(byToken.get(token));
    }

    /** Forgets the locks on a resource that is gone (deleted, or moved away). */
    synchronized void removeAtOrBelow(DavPath path) {
        byToken.values().removeIf(l -> l.root().startsWith(path));
    }

    long nowNanos() {
        return nanoClock.getAsLong();
    }

    private static long clamp(long seconds) {
        return seconds <= 0 ? DEFAULT_TIMEOUT_SECONDS : Math.min(seconds, MAX_TIMEOUT_SECONDS);
    }

    private void expire() {
        long now = nanoClock.getAsLong();
        byToken.values().removeIf(l -> now - l.expiresAtNanos() >= 0);
    }
}
