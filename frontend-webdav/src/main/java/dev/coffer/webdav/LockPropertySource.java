package dev.coffer.webdav;

import io.milton.property.PropertySource;
import io.milton.resource.Resource;
import java.util.List;
import javax.xml.namespace.QName;

/**
 * The two lock properties of RFC 4918 15.8 and 15.10 for Milton's PROPFIND: {@code supportedlock}
 * (exclusive and shared write locks) and {@code lockdiscovery} (the locks covering the resource).
 * Their values are ready-made XML ({@link RawXml}).
 *
 * <p>Not responsible for the lock table or the LOCK method.
 */
final class LockPropertySource implements PropertySource {
    static final QName LOCKDISCOVERY = new QName("DAV:", "lockdiscovery");
    static final QName SUPPORTEDLOCK = new QName("DAV:", "supportedlock");
    static final String SUPPORTED = "<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>"
            + "<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>";

    private final LockManager locks;
    private final LockMethods lockMethods;

    LockPropertySource(LockManager locks, LockMethods lockMethods) {
        this.locks = locks;
        this.lockMethods = lockMethods;
    }

    @Override
    public Object getProperty(QName name, Resource r) {
        if (!(r instanceof PathResource pr)) {
            return null;
        }
        if (name.equals(SUPPORTEDLOCK)) {
            return new RawXml(SUPPORTED);
        }
        if (name.equals(LOCKDISCOVERY)) {
            StringBuilder sb = new StringBuilder();
            for (DavLock l : locks.covering(pr.path)) {
                sb.append(lockMethods.activeLockXml(l, pr.form));
            }
            return new RawXml(sb.toString());
        }
        return null;
    }

    @Override
    public void setProperty(QName name, Object value, Resource r) throws PropertySetException {
        throw new PropertySetException(io.milton.http.Response.Status.SC_FORBIDDEN, "protected property");
    }

    @Override
    public PropertyMetaData getPropertyMetaData(QName name, Resource r) {
        if (r instanceof PathResource && (name.equals(SUPPORTEDLOCK) || name.equals(LOCKDISCOVERY))) {
            return new PropertyMetaData(PropertyAccessibility.READ_ONLY, RawXml.class);
        }
        return PropertyMetaData.UNKNOWN;
    }

    @Override
    public void clearProperty(QName name, Resource r) throws PropertySetException {
        throw new PropertySetException(io.milton.http.Response.Status.SC_FORBIDDEN, "protected property");
    }

    @Override
    public List<QName> getAllPropertyNames(Resource r) {
        return r instanceof PathResource ? List.of(SUPPORTEDLOCK, LOCKDISCOVERY) : List.of();
    }
}
