package dev.coffer.webdav;

import io.milton.property.PropertySource;
import io.milton.resource.Resource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;

/**
 * Milton's read access to dead properties ({@link DeadProperties}) for PROPFIND: a property that
 * was set is known and shown as the XML it was set to; any other is unknown (404 in PROPFIND).
 * Setting and removing is {@link PropPatchMethod}'s job, so Milton may not write through here.
 *
 * <p>Not responsible for live properties (Milton's WebDAV protocol) or lock properties.
 */
final class DeadPropertySource implements PropertySource {

    @Override
    public Object getProperty(QName name, Resource r) {
        String xml = r instanceof PathResource pr && !isDav(name) ? read(pr).get(name) : null;
        return xml == null ? null : new RawXml(xml);
    }

    @Override
    public void setProperty(QName name, Object value, Resource r) throws PropertySetException {
        throw new PropertySetException(io.milton.http.Response.Status.SC_FORBIDDEN, "PROPPATCH is not Milton's");
    }

    @Override
    public PropertyMetaData getPropertyMetaData(QName name, Resource r) {
        if (r instanceof PathResource pr && !isDav(name) && read(pr).containsKey(name)) {
            return new PropertyMetaData(PropertyAccessibility.READ_ONLY, RawXml.class);
        }
        return PropertyMetaData.UNKNOWN;
    }

    @Override
    public void clearProperty(QName name, Resource r) throws PropertySetException {
        throw new PropertySetException(io.milton.http.Response.Status.SC_FORBIDDEN, "PROPPATCH is not Milton's");
    }

    @Override
    public List<QName> getAllPropertyNames(Resource r) {
        return r instanceof PathResource pr ? new ArrayList<>(read(pr).keySet()) : List.of();
    }

    private static boolean isDav(QName name) {
        return "DAV:".equals(name.getNamespaceURI());
    }

    private static Map<QName, String> read(PathResource pr) {
        try {
            return pr.deadProperties();
        } catch (IOException e) {
            throw PathFree.unchecked("reading dead properties", e);
        }
    }
}
