package dev.coffer.webdav;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.util.Optional;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * LOCK and UNLOCK (RFC 4918 9.10, 9.11), which Milton's free edition lacks: new exclusive or shared
 * write locks of depth 0 or infinity, refreshes (a LOCK without body naming the lock in {@code If}),
 * timeouts from the {@code Timeout} header, and LOCK on an unmapped URL, which creates an empty
 * file (the "locked empty resource" of RFC 4918 7.3). Also writes the {@code activelock} XML that
 * PROPFIND's {@code lockdiscovery} shows.
 *
 * <p>Not responsible for the lock table ({@link LockManager}) or enforcing locks ({@link Preconditions}).
 */
final class LockMethods {
    private final DavTree tree;
    private final LockManager locks;
    private final Preconditions pre;

    LockMethods(DavTree tree, LockManager locks, Preconditions pre) {
        this.tree = tree;
        this.locks = locks;
        this.pre = pre;
    }

    DavReply lock(HttpServletRequest req, DavPath p, byte[] body, NameForm form) throws IOException {
        String depth = req.getHeader("Depth");
        if (depth != null && !depth.equals("0") && !depth.equalsIgnoreCase("infinity")) {
            return DavReply.status(400);
        }
        long timeout = timeoutSeconds(req.getHeader("Timeout"));
        String ifHeader = req.getHeader("If");
        if (body.length == 0) {
            return refresh(p, ifHeader, timeout, form);
        }
        Document doc;
        try {
            doc = Xml.parse(body);
        } catch (IOException e) {
            return DavReply.status(400);
        }
        Element info = doc.getDocumentElement();
        if (!isDav(info, "lockinfo") || child(info, "lockscope") == null || child(info, "locktype") == null) {
            return DavReply.status(400);
        }
        boolean exclusive = child(child(info, "lockscope"), "exclusive") != null;
        if (!exclusive && child(child(info, "lockscope"), "shared") == null || child(child(info, "locktype"), "write") == null) {
            return DavReply.status(400);
        }
        Element owner = child(info, "owner");
        String ownerXml = owner == null ? null : innerXml(owner);
        // Under the commit lock: a PUT, COPY or MOVE between its last lock check and its rename would
        // otherwise override a lock granted now (on the resource or, for depth infinity, a member).
        DavLock lock;
        boolean exists;
        synchronized (tree.commitLock()) {
            boolean present = tree.attributes(p).isPresent();
            exists = present;
            if (!exists && !tree.isFolder(p.parent())) {
                return DavReply.status(409);
            }
            Optional<DavError> refused = pre.checkIf(ifHeader, p)
                    .or(() -> present ? Optional.empty() : pre.checkLocks(ifHeader, locks.covering(p.parent())));
            if (refused.isPresent()) {
                return DavReply.of(refused.get());
            }
            Optional<DavLock> granted = locks.lock(p, depth == null || depth.equalsIgnoreCase("infinity"), exclusive, ownerXml, timeout);
            if (granted.isEmpty()) {
                return DavReply.of(DavError.withCondition(423, "<D:no-conflicting-lock/>"));
            }
            if (!exists) {
                try {
                    tree.props().clearStale(p); // a lock-null resource is a new one (davfs2 makes every new file so)
                    Files.createFile(tree.file(p));
                } catch (FileAlreadyExistsException e) {
                    // created meanwhile by another request: the lock applies to it
                } catch (IOException e) {
                    locks.unlock(granted.get().token(), p);
                    throw e;
                }
            }
            lock = granted.get();
        }
        return DavReply.status(exists ? 200 : 201)
                .header("Lock-Token", "<" + lock.token() + ">")
                .xml(propXml(lock, form));
    }

    DavReply unlock(HttpServletRequest req, DavPath p) {
        String header = req.getHeader("Lock-Token");
        if (header == null) {
            return DavReply.status(400);
        }
        String token = header.trim();
        if (token.startsWith("<") && token.endsWith(">")) {
            token = token.substring(1, token.length() - 1);
        }
        if (!locks.unlock(token, p)) {
            return DavReply.of(DavError.withCondition(409, "<D:lock-token-matches-request-uri/>"));
        }
        return DavReply.status(204);
    }

    private DavReply refresh(DavPath p, String ifHeader, long timeout, NameForm form) {
        if (ifHeader == null) {
            return DavReply.status(400);
        }
        try {
            for (String token : IfHeader.parse(ifHeader).submittedTokens()) {
                Optional<DavLock> l = locks.refresh(token, p, timeout);
                if (l.isPresent()) {
                    return DavReply.status(200).xml(propXml(l.get(), form));
                }
            }
        } catch (IfHeader.MalformedException e) {
            return DavReply.status(400);
        }
        return DavReply.of(DavError.withCondition(412, "<D:lock-token-matches-request-uri/>"));
    }

    private String propXml(DavLock lock, NameForm form) {
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:prop xmlns:D=\"DAV:\"><D:lockdiscovery>"
                + activeLockXml(lock, form) + "</D:lockdiscovery></D:prop>";
    }

    /** One {@code D:activelock} element (prefix {@code D} bound to {@code DAV:} by the caller). */
    String activeLockXml(DavLock lock, NameForm form) {
        return "<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope>"
                + (lock.exclusive() ? "<D:exclusive/>" : "<D:shared/>") + "</D:lockscope>"
                + "<D:depth>" + (lock.infinite() ? "infinity" : "0") + "</D:depth>"
                + (lock.ownerXml() == null ? "" : "<D:owner>" + lock.ownerXml() + "</D:owner>")
                + "<D:timeout>Second-" + lock.secondsLeft(locks.nowNanos()) + "</D:timeout>"
                + "<D:locktoken><D:href>" + lock.token() + "</D:href></D:locktoken>"
                + "<D:lockroot><D:href>" + Xml.escape(tree.urls().href(lock.root(), tree.isFolder(lock.root()), form))
                + "</D:href></D:lockroot></D:activelock>";
    }

    /** The first understood entry of {@code Timeout: Second-N, Infinite}; 0 for the default. */
    static long timeoutSeconds(String header) {
        if (header == null) {
            return 0;
        }
        for (String t : header.split(",")) {
            String s = t.trim();
            if (s.equalsIgnoreCase("Infinite")) {
                return LockManager.MAX_TIMEOUT_SECONDS;
            }
            if (s.regionMatches(true, 0, "Second-", 0, 7)) {
                try {
                    return Math.max(1, Long.parseLong(s.substring(7)));
                } catch (NumberFormatException e) {
                    return LockManager.MAX_TIMEOUT_SECONDS; // absurdly large
                }
            }
        }
        return 0;
    }

    private static boolean isDav(Node n, String local) {
        return n instanceof Element && "DAV:".equals(n.getNamespaceURI()) && local.equals(n.getLocalName());
    }

    private static Element child(Element parent, String local) {
        if (parent == null) {
            return null;
        }
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (isDav(n, local)) {
                return (Element) n;
            }
        }
        return null;
    }

    private static String innerXml(Element e) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            sb.append(n.getNodeType() == Node.TEXT_NODE ? Xml.escape(n.getTextContent()) : Xml.serialize(n));
        }
        return sb.toString();
    }
}
