package dev.coffer.webdav;

import io.milton.http.Response;
import io.milton.http.XmlWriter;
import io.milton.http.values.ValueAndType;
import io.milton.http.values.ValueWriters;
import io.milton.http.webdav.PropFindResponse;
import io.milton.http.webdav.PropFindXmlFooter;
import io.milton.http.webdav.PropFindXmlGenerator;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;

/**
 * Writes Milton's PROPFIND results as a multistatus. Replaces Milton's own generator, which binds
 * a prefix to the empty namespace ({@code xmlns:ns1=""}, not well-formed) and writes unknown
 * properties of undeclared namespaces without any namespace. Here {@code DAV:} properties use the
 * prefix {@code D} and Milton's value writers; every other property is written with a default
 * namespace declaration of its own ({@code <name xmlns="uri">}, also right for no namespace), its
 * value being the XML it was set to ({@link RawXml}) or escaped text.
 *
 * <p>Not responsible for which properties are reported (Milton's PROPFIND handler and the
 * property sources decide).
 */
final class MultistatusWriter extends PropFindXmlGenerator {
    private static final String DAV = "DAV:";
    private static final Map<String, String> PREFIXES = Map.of(DAV, "D");

    private final ValueWriters valueWriters;

    MultistatusWriter(ValueWriters valueWriters) {
        super(valueWriters);
        this.valueWriters = valueWriters;
    }

    @Override
    public void generate(List<PropFindResponse> responses, OutputStream out, boolean writeErrorProps, PropFindXmlFooter footer) {
        XmlWriter w = new XmlWriter(out);
        w.writeText("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:multistatus xmlns:D=\"DAV:\">");
        for (PropFindResponse r : responses) {
            w.writeText("<D:response><D:href>" + Xml.escape(pathOnly(r.getHref())) + "</D:href>");
            if (r.getStatus() != null) {
                w.writeText("<D:status>" + r.getStatus() + "</D:status>");
            } else {
                writeKnown(w, r.getKnownProperties(), r.getHref());
                if (writeErrorProps && r.getErrorProperties() != null) {
                    for (Map.Entry<Response.Status, List<PropFindResponse.NameAndError>> e : r.getErrorProperties().entrySet()) {
                        if (e.getValue().isEmpty()) {
                            continue;
                        }
                        w.writeText("<D:propstat><D:prop>");
                        for (PropFindResponse.NameAndError ne : e.getValue()) {
                            w.writeText(PropPatchMethod.emptyElement(ne.getName()));
                        }
                        w.writeText("</D:prop><D:status>" + e.getKey() + "</D:status></D:propstat>");
                    }
                }
            }
            w.writeText("</D:response>");
        }
        if (footer != null) {
            footer.footer(w);
        }
        w.writeText("</D:multistatus>");
        w.flush();
    }

    /** Milton's hrefs are absolute URLs; clients such as davfs2 expect the absolute path RFC 4918 shows. */
    static String pathOnly(String href) {
        int scheme = href.indexOf("://");
        if (scheme < 0) {
            return href;
        }
        int slash = href.indexOf('/', scheme + 3);
        return slash < 0 ? "/" : href.substring(slash);
    }

    private void writeKnown(XmlWriter w, Map<QName, ValueAndType> props, String href) {
        if (props.isEmpty()) {
            return;
        }
        w.writeText("<D:propstat><D:prop>");
        for (Map.Entry<QName, ValueAndType> e : props.entrySet()) {
            QName q = e.getKey();
            Object value = e.getValue() == null ? null : e.getValue().getValue();
            if (DAV.equals(q.getNamespaceURI()) && !(value instanceof RawXml)) {
                if (e.getValue() == null) {
                    w.writeText("<D:" + q.getLocalPart() + "/>");
                } else {
                    valueWriters.writeValue(w, q, "D", e.getValue(), href, PREFIXES);
                }
            } else {
                String open = DAV.equals(q.getNamespaceURI()) ? "<D:" + q.getLocalPart()
                        : "<" + q.getLocalPart() + " xmlns=\"" + Xml.escape(q.getNamespaceURI()) + "\"";
                String close = DAV.equals(q.getNamespaceURI()) ? "</D:" + q.getLocalPart() + ">" : "</" + q.getLocalPart() + ">";
                String body = value instanceof RawXml raw ? raw.xml() : value == null ? "" : Xml.escape(value.toString());
                w.writeText(open + ">" + body + close);
            }
        }
        w.writeText("</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>");
    }
}
