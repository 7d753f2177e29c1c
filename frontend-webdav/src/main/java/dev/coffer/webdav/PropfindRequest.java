package dev.coffer.webdav;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.xml.namespace.QName;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * What a PROPFIND body asks for (RFC 4918 14.20): {@code allprop} (with optional {@code include}
 * names), {@code propname}, or a {@code prop} list of names; an empty body is {@code allprop}.
 * Also decides which side answers it: Coffer's streamed listing ({@link PropfindMethod}) knows the
 * live properties of RFC 4918 ({@link LiveProperties}) and dead properties; a request naming any
 * other {@code DAV:} property (extensions such as quota, ACL or Microsoft's {@code DAV:isreadonly}),
 * or a body of another shape, goes to Milton, whose property framework knows them.
 *
 * <p>Not responsible for the values (the property classes are) or for size limits (the servlet).
 */
record PropfindRequest(Kind kind, List<QName> names) {
    /** The three forms of a PROPFIND body. */
    enum Kind {
        ALLPROP, PROPNAME, PROP
    }

    static final PropfindRequest ALLPROP = new PropfindRequest(Kind.ALLPROP, List.of());

    PropfindRequest {
        names = List.copyOf(names);
    }

    /**
     * The request in the body, or empty when it is well-formed XML of a shape Coffer leaves to
     * Milton.
     *
     * @throws IOException if the body is not well-formed XML (400)
     */
    static Optional<PropfindRequest> parse(byte[] body) throws IOException {
        if (body.length == 0) {
            return Optional.of(ALLPROP); // RFC 4918 9.1
        }
        Document doc = Xml.parse(body);
        Element root = doc.getDocumentElement();
        if (!isDav(root, "propfind")) {
            return Optional.empty();
        }
        Kind kind = null;
        List<QName> names = new ArrayList<>();
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element e)) {
                continue;
            }
            if (isDav(e, "allprop") && kind == null) {
                kind = Kind.ALLPROP;
            } else if (isDav(e, "propname") && kind == null) {
                kind = Kind.PROPNAME;
            } else if (isDav(e, "prop") && kind == null) {
                kind = Kind.PROP;
                names.addAll(childNames(e));
            } else if (isDav(e, "include") && kind != Kind.PROP && kind != Kind.PROPNAME) {
                names.addAll(childNames(e));
            } else {
                return Optional.empty();
            }
        }
        if (kind == null) {
            return Optional.empty();
        }
        PropfindRequest r = new PropfindRequest(kind, names);
        return r.names.stream().allMatch(q -> !LiveProperties.isDav(q) || LiveProperties.isKnown(q)) ? Optional.of(r) : Optional.empty();
    }

    private static List<QName> childNames(Element parent) {
        List<QName> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                out.add(new QName(e.getNamespaceURI() == null ? "" : e.getNamespaceURI(), e.getLocalName()));
            }
        }
        return out;
    }

    private static boolean isDav(Node n, String local) {
        return "DAV:".equals(n.getNamespaceURI()) && local.equals(n.getLocalName());
    }
}
