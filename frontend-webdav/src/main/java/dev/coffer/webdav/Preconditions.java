package dev.coffer.webdav;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The checks every write method passes before it runs: the {@code If} header (RFC 4918 10.4: some
 * list of conditions must hold, else 412), {@code If-Match}/{@code If-None-Match} (RFC 9110, 412),
 * and the lock rule (RFC 4918 7: every exclusive lock on an affected resource, and one of the
 * shared locks, must have its token submitted in {@code If}, else 423 with
 * {@code lock-token-submitted}). Which resources a method affects is the caller's choice
 * ({@link #locksForChange}, {@link #locksForMembership}).
 *
 * <p>Not responsible for running the method or for granting locks ({@link LockManager}).
 */
final class Preconditions {
    private final Path root;
    private final LockManager locks;
    private final DavUrls urls;

    Preconditions(Path root, LockManager locks, DavUrls urls) {
        this.root = root;
        this.locks = locks;
        this.urls = urls;
    }

    /** Parses and evaluates {@code If} for the request target; empty means it holds (or is absent). */
    Optional<DavError> checkIf(String ifHeader, DavPath target) {
        if (ifHeader == null) {
            return Optional.empty();
        }
        IfHeader parsed;
        try {
            parsed = IfHeader.parse(ifHeader);
        } catch (IfHeader.MalformedException e) {
            return Optional.of(DavError.of(400));
        }
        for (IfHeader.ConditionList list : parsed.lists()) {
            Optional<DavPath> resource = list.resourceTag() == null ? Optional.of(target) : urls.fromUrl(list.resourceTag());
            if (resource.isPresent() && holds(list, resource.get())) {
                return Optional.empty();
            }
        }
        return Optional.of(DavError.of(412));
    }

    /** {@code If-Match} and {@code If-None-Match} of a write method against the target's current tag. */
    Optional<DavError> checkMatch(String ifMatch, String ifNoneMatch, DavPath target) {
        Optional<String> etag = Etags.of(target.resolveIn(root));
        if (ifMatch != null && !matchesAny(ifMatch, etag)) {
            return Optional.of(DavError.of(412));
        }
        if (ifNoneMatch != null && matchesAny(ifNoneMatch, etag)) {
            return Optional.of(DavError.of(412));
        }
        return Optional.empty();
    }

    /** 423 unless the request submits a token for every exclusive lock and, if any, one shared lock. */
    Optional<DavError> checkLocks(String ifHeader, Collection<DavLock> required) {
        if (required.isEmpty()) {
            return Optional.empty();
        }
        Set<String> submitted;
        try {
            submitted = ifHeader == null ? Set.of() : IfHeader.parse(ifHeader).submittedTokens();
        } catch (IfHeader.MalformedException e) {
            return Optional.of(DavError.of(400));
        }
        DavLock missing = null;
        boolean sharedSubmitted = false;
        DavLock firstShared = null;
        for (DavLock l : required) {
            if (l.exclusive()) {
                if (!submitted.contains(l.token())) {
                    missing = l;
                }
            } else {
                firstShared = firstShared == null ? l : firstShared;
                sharedSubmitted |= submitted.contains(l.token());
            }
        }
        if (missing == null && firstShared != null && !sharedSubmitted) {
            missing = firstShared;
        }
        if (missing == null) {
            return Optional.empty();
        }
        return Optional.of(DavError.withCondition(423, "<D:lock-token-submitted><D:href>"
                + Xml.escape(urls.href(missing.root(), false, NameForm.NFC)) + "</D:href></D:lock-token-submitted>"));
    }

    /** Locks that guard changing the resource at {@code p} in place (PUT over it, PROPPATCH). */
    Collection<DavLock> locksForChange(DavPath p) {
        return locks.covering(p);
    }

    /** Locks that guard adding or removing {@code p} as a member of its folder (with all below it). */
    Collection<DavLock> locksForMembership(DavPath p) {
        Set<DavLock> out = new LinkedHashSet<>(locks.covering(p.parent()));
        out.addAll(locks.covering(p));
        out.addAll(locks.rootedAtOrBelow(p));
        return new ArrayList<>(out);
    }

    private boolean holds(IfHeader.ConditionList list, DavPath resource) {
        Optional<String> etag = Etags.of(resource.resolveIn(root));
        List<DavLock> current = locks.covering(resource);
        for (IfHeader.Condition c : list.conditions()) {
            boolean match;
            if (c.stateToken() != null) {
                match = current.stream().anyMatch(l -> l.token().equals(c.stateToken()));
            } else {
                match = etag.isPresent() && etag.get().equals(c.entityTag());
            }
            if (match == c.not()) {
                return false;
            }
        }
        return true;
    }

    private static boolean matchesAny(String header, Optional<String> etag) {
        if (etag.isEmpty()) {
            return false;
        }
        for (String t : header.split(",")) {
            String tag = t.trim();
            if (tag.equals("*") || tag.equals(etag.get())) {
                return true;
            }
        }
        return false;
    }
}
