package dev.coffer.webdav;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import javax.xml.namespace.QName;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * A PROPPATCH body ({@code DAV:propertyupdate}, RFC 4918 14.19) read into its instructions, in
 * document order: every property it names, those it may not change ({@code DAV:} namespace), and
 * the edits to apply to a resource's dead properties. Values are kept as XML, so structured values
 * come back as they were sent.
 *
 * <p>Not responsible for applying the edits to a resource or for answering ({@link PropPatchMethod}).
 */
final class PropertyUpdate {
    private final List<Consumer<Map<QName, String>>> edits = new ArrayList<>();
    private final List<QName> touched = new ArrayList<>();
    private final List<QName> forbidden = new ArrayList<>();

    private PropertyUpdate() {}

    /** The instructions of {@code body}; empty if it is not well-formed, not a propertyupdate, or names no property. */
    static Optional<PropertyUpdate> parse(byte[] body) throws IOException {
        Document doc;
        try {
            doc = Xml.parse(body);
        } catch (IOException e) {
            return Optional.empty();
        }
        Element root = doc.getDocumentElement();
        if (!isDav(root, "propertyupdate")) {
            return Optional.empty();
        }
        PropertyUpdate u = new PropertyUpdate();
        for (Node op = root.getFirstChild(); op != null; op = op.getNextSibling()) {
            boolean set = isDav(op, "set");
            if (!set && !isDav(op, "remove")) {
                continue;
            }
            for (Node prop = op.getFirstChild(); prop != null; prop = prop.getNextSibling()) {
                if (isDav(prop, "prop")) {
                    u.addAll(prop, set);
                }
            }
        }
        return u.touched.isEmpty() ? Optional.empty() : Optional.of(u);
    }

    /** Every property the body names, in order. */
    List<QName> touched() {
        return touched;
    }

    /** Whether it may be applied: PROPPATCH is all or nothing, and {@code DAV:} properties are not the client's to change. */
    boolean allowed() {
        return forbidden.isEmpty();
    }

    boolean isForbidden(QName q) {
        return forbidden.contains(q);
    }

    /** Applies the sets and removes to {@code props}, in document order (a remove then a set of one property ends with it set). */
    void applyTo(Map<QName, String> props) {
        edits.forEach(edit -> edit.accept(props));
    }

    private void addAll(Node prop, boolean set) throws IOException {
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
