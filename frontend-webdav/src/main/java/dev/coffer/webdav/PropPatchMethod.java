package dev.coffer.webdav;

import java.io.IOException;
import java.util.Optional;
import javax.xml.namespace.QName;

/**
 * PROPPATCH (RFC 4918 9.2), done here rather than by Milton because Milton's parser loses the
 * document order of {@code set} and {@code remove} (a remove-then-set of one property must end
 * with it set) and keeps only the text of a value ({@link PropertyUpdate} reads the body).
 * Instructions apply in order, all or nothing: if any property is protected ({@code DAV:}
 * namespace), nothing changes (403 for it, 424 for the rest).
 *
 * <p>The resource, {@code If} and its locks are checked before the body is read ({@link #refusal},
 * so a refused request is not made to send it) and again, with the properties written, under the
 * tree's commit lock ({@link DavTree#commitLock}): a LOCK granted, or a MOVE or DELETE of the
 * resource, while the body was read is then seen (423, 404) instead of overridden, and no
 * properties are written for a name that has vanished, which a resource later made under it would
 * inherit.
 *
 * <p>Not responsible for where values are stored ({@link DeadProperties}).
 */
final class PropPatchMethod {
    private final DavTree tree;
    private final Preconditions pre;

    PropPatchMethod(DavTree tree, Preconditions pre) {
        this.tree = tree;
        this.pre = pre;
    }

    /** Why a PROPPATCH of {@code p} may not change it now (404, 412, 423); empty if it may. */
    Optional<DavReply> refusal(DavPath p, String ifHeader) {
        if (tree.attributes(p).isEmpty()) {
            return Optional.of(DavReply.status(404));
        }
        return pre.checkIf(ifHeader, p)
                .or(() -> pre.checkLocks(ifHeader, pre.locksForChange(p)))
                .map(DavReply::of);
    }

    /** Runs a PROPPATCH of {@code p} whose {@link #refusal} was empty and whose body has been read. */
    DavReply proppatch(DavPath p, String ifHeader, byte[] body, NameForm form) throws IOException {
        Optional<PropertyUpdate> parsed = PropertyUpdate.parse(body);
        if (parsed.isEmpty()) {
            return DavReply.status(400);
        }
        PropertyUpdate update = parsed.get();
        boolean folder;
        WriteMethods.pauseForTests.accept(WriteMethods.Stage.CHECKED);
        synchronized (tree.commitLock()) {
            Optional<DavReply> late = refusal(p, ifHeader);
            if (late.isPresent()) {
                return late.get();
            }
            folder = tree.isFolder(p);
            if (update.allowed()) {
                WriteMethods.pauseForTests.accept(WriteMethods.Stage.COMMITTING);
                tree.props().update(p, update::applyTo);
            }
        }
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>")
                .append(Xml.escape(tree.urls().href(p, folder, form))).append("</D:href>");
        for (QName q : update.touched()) {
            int status = update.allowed() ? 200 : update.isForbidden(q) ? 403 : 424;
            sb.append("<D:propstat><D:prop>").append(emptyElement(q)).append("</D:prop><D:status>HTTP/1.1 ")
                    .append(status).append(status == 200 ? " OK" : status == 403 ? " Forbidden" : " Failed Dependency")
                    .append("</D:status></D:propstat>");
        }
        return DavReply.status(207).xml(sb.append("</D:response></D:multistatus>").toString());
    }

    static String emptyElement(QName q) {
        if ("DAV:".equals(q.getNamespaceURI())) {
            return "<D:" + q.getLocalPart() + "/>";
        }
        return "<" + q.getLocalPart() + " xmlns=\"" + Xml.escape(q.getNamespaceURI()) + "\"/>";
    }
}
