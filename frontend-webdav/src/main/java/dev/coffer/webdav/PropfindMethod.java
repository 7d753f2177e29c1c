package dev.coffer.webdav;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;

/**
 * Coffer's PROPFIND for the requests {@link PropfindRequest} gives it (allprop, propname, and
 * {@code prop} lists of RFC 4918 and dead properties): the multistatus is streamed to the client
 * as it is made, one {@code response} per resource, instead of being built whole in memory as
 * Milton does (9.5 MB for a folder of 10,000 files). Depth 1 lists the folder once
 * ({@link FolderMembers}: one directory stream, attributes read once per member, sidecars read only
 * for members that have one). Everything that can fail before the first byte (the target's
 * attributes, the folder's names) is done before the {@code 207} is sent; a failure after that
 * (a sidecar that cannot be read) cuts the response off, which the client sees as an error.
 *
 * <p>Not responsible for the Depth and body checks (the servlet), or for requests naming other
 * {@code DAV:} properties (Milton answers those).
 */
final class PropfindMethod {
    private static final int WRITE_BUFFER = 64 * 1024;
    private static final String OK = "<D:status>HTTP/1.1 200 OK</D:status></D:propstat>";
    private static final String NOT_FOUND = "<D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>";

    private final DavTree tree;
    private final LiveProperties live;

    PropfindMethod(DavTree tree, LiveProperties live) {
        this.tree = tree;
        this.live = live;
    }

    /** Answers for {@code p} (which exists, with attributes {@code a}) and, for depth 1, its members. */
    void propfind(HttpServletResponse resp, DavPath p, BasicFileAttributes a, boolean depthOne, PropfindRequest request, NameForm form)
            throws IOException {
        FolderMembers members = depthOne && a.isDirectory() ? tree.members(p) : null;
        resp.setStatus(207);
        resp.setContentType("application/xml; charset=utf-8");
        // The writer's buffer batches entries into large writes; Jetty sends them chunked as they come.
        Writer out = new OutputStreamWriter(resp.getOutputStream(), StandardCharsets.UTF_8);
        StringBuilder entry = new StringBuilder(WRITE_BUFFER);
        entry.append("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:multistatus xmlns:D=\"DAV:\">");
        String href = tree.urls().href(p, a.isDirectory(), form);
        appendResponse(entry, href, p, a, true, request, form);
        if (members != null) {
            members.forEach(m -> {
                String memberHref = href + DavUrls.encodeSegment(form.present(m.name())) + (m.attrs().isDirectory() ? "/" : "");
                appendResponse(entry, memberHref, p.child(m.name()), m.attrs(), m.hasSidecar(), request, form);
                if (entry.length() >= WRITE_BUFFER) {
                    out.append(entry);
                    entry.setLength(0);
                }
            });
        }
        entry.append("</D:multistatus>");
        out.append(entry);
        out.flush();
    }

    private void appendResponse(StringBuilder out, String href, DavPath p, BasicFileAttributes a, boolean mayHaveDeadProperties,
            PropfindRequest request, NameForm form) throws IOException {
        Map<QName, String> dead = mayHaveDeadProperties ? tree.props().read(p) : Map.of();
        out.append("<D:response><D:href>").append(Xml.escape(href)).append("</D:href>");
        List<QName> missing = new ArrayList<>();
        int propstat = out.length();
        out.append("<D:propstat><D:prop>");
        int found = out.length();
        switch (request.kind()) {
            case PROPNAME -> {
                for (QName q : LiveProperties.ALL) {
                    if (LiveProperties.has(q, a)) {
                        out.append(PropPatchMethod.emptyElement(q));
                    }
                }
                dead.keySet().stream().filter(q -> !LiveProperties.isDav(q)).forEach(q -> out.append(PropPatchMethod.emptyElement(q)));
            }
            case ALLPROP -> {
                for (QName q : LiveProperties.ALL) {
                    if (LiveProperties.has(q, a)) {
                        live.append(q, p, a, form, out);
                    }
                }
                dead.forEach((q, xml) -> {
                    if (!LiveProperties.isDav(q)) {
                        appendDead(out, q, xml);
                    }
                });
                for (QName q : request.names()) { // include: answered by allprop already, or missing
                    if (!LiveProperties.has(q, a) && !dead.containsKey(q)) {
                        missing.add(q);
                    }
                }
            }
            case PROP -> {
                for (QName q : request.names()) {
                    if (LiveProperties.isDav(q) && LiveProperties.has(q, a)) {
                        live.append(q, p, a, form, out);
                    } else if (!LiveProperties.isDav(q) && dead.containsKey(q)) {
                        appendDead(out, q, dead.get(q));
                    } else {
                        missing.add(q);
                    }
                }
            }
            default -> throw new IllegalStateException(request.kind().name());
        }
        if (out.length() == found) {
            out.setLength(propstat); // nothing found: no empty 200 propstat
        } else {
            out.append("</D:prop>").append(OK);
        }
        if (!missing.isEmpty()) {
            out.append("<D:propstat><D:prop>");
            missing.forEach(q -> out.append(PropPatchMethod.emptyElement(q)));
            out.append("</D:prop>").append(NOT_FOUND);
        }
        out.append("</D:response>");
    }

    /** A dead property with a default namespace of its own; its value is the XML the client set. */
    private static void appendDead(StringBuilder out, QName q, String xml) {
        out.append('<').append(q.getLocalPart()).append(" xmlns=\"").append(Xml.escape(q.getNamespaceURI())).append("\">").append(xml)
                .append("</").append(q.getLocalPart()).append('>');
    }
}
