package dev.coffer.webdav;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * PROPPATCH (RFC 4918 9.2), done here rather than by Milton because Milton's parser loses the
 * document order of {@code set} and {@code remove} (a remove-then-set of one property must end
 * with it set) and keeps only the text of a value. Instructions apply in order, all or nothing:
 * if any property is protected ({@code DAV:} namespace), nothing changes (403 for it, 424 for the
 * rest). Values are kept as XML, so structured values come back as they were sent.
 *
 * <p>Not responsible for where values are stored ({@link DeadProperties}) or for lock checks.
 */
final class PropPatchMethod {
    private final DavTree tree;

    PropPatchMethod(DavTree tree) {
        this.tree = tree;
    }

    DavReply proppatch(DavPath p, byte[] body, NameForm form) throws IOException {
        Document doc;
        try {
            doc = Xml.parse(body);
        } catch (IOException e) {
            return DavReply.status(400);
        }
        Element update = doc.getDocumentElement();
        if (!isDav(update, "propertyupdate")) {
            return DavReply.status(400);
        }
        List<java.util.function.Consumer<Map<QName, String>>> edits = new ArrayList<>();
        List<QName> touched = new ArrayList<>();
        List<QName> forbidden = new ArrayList<>();
        for (Node op = update.getFirstChild(); op != null; op = op.getNextSibling()) {
            boolean set = isDav(op, "set");
            if (!set && !isDav(op, "remove")) {
                continue;
            }
            for (Node prop = op.getFirstChild(); prop != null; prop = prop.getNextSibling()) {
                if (!isDav(prop, "prop")) {
                    continue;
                }
                for (Node n = prop.getFirstChild(); n != null; n = n.getNextSibling()) {
                    if (!(n instanceof Element e)) {
                        continue;
                    }
                    QName name = new QName(e.getNamespaceURI() == null ? "" : e.getNamespaceURI(), e.getLocalName());
                    touched.add(name);
                    if ("DAV:".equals(name.getNamespaceURI())) {
                        forbidden.add(name);
                    } else if (set) {
                        String value = innerXml(e);
                        edits.add(props -> props.put(name, value));
                    } else {
                        edits.add(props -> props.remove(name));
                    }
                }
            }
        }
        if (touched.isEmpty()) {
            return DavReply.status(400);
        }
        if (forbidden.isEmpty()) {
            tree.props().update(p, props -> edits.forEach(edit -> edit.accept(props))); // in document order
        }
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>")
                .append(Xml.escape(tree.urls().href(p, tree.isFolder(p), form))).append("</D:href>");
        for (QName q : touched) {
            int status = forbidden.isEmpty() ? 200 : forbidden.contains(q) ? 403 : 424;
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

    private static boolean isDav(Node n, String local) {
        return n instanceof Element && "DAV:".equals(n.getNamespaceURI()) && local.equals(n.getLocalName());
    }

    private static String innerXml(Element e) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeType() == Node.TEXT_NODE || n.getNodeType() == Node.CDATA_SECTION_NODE) {
                sb.append(Xml.escape(n.getTextContent()));
            } else if (n.getNodeType() == Node.ELEMENT_NODE) {
                sb.append(Xml.serialize(n));
            }
        }
        return sb.toString();
    }
}
