package dev.coffer.webdav;

import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import javax.xml.namespace.QName;

/**
 * The live properties of RFC 4918 (section 15) for Coffer's own PROPFIND: {@code creationdate},
 * {@code displayname}, {@code getcontentlength} and {@code getcontenttype} (files only),
 * {@code getetag} ({@link Etags}), {@code getlastmodified}, {@code resourcetype},
 * {@code supportedlock} and {@code lockdiscovery} (from the {@link LockManager}), each written as a
 * whole element with the prefix {@code D} from attributes that were read once. These are also what
 * {@code allprop} returns (with the dead properties), as RFC 4918 14.2 asks.
 *
 * <p>Not responsible for dead properties ({@link DeadProperties}) or for which properties a request
 * names ({@link PropfindRequest}); {@code getcontentlanguage} is known but never set.
 */
final class LiveProperties {
    static final QName CREATIONDATE = dav("creationdate");
    static final QName DISPLAYNAME = dav("displayname");
    static final QName GETCONTENTLANGUAGE = dav("getcontentlanguage");
    static final QName GETCONTENTLENGTH = dav("getcontentlength");
    static final QName GETCONTENTTYPE = dav("getcontenttype");
    static final QName GETETAG = dav("getetag");
    static final QName GETLASTMODIFIED = dav("getlastmodified");
    static final QName RESOURCETYPE = dav("resourcetype");
    /** In the order allprop and propname list them. */
    static final List<QName> ALL = List.of(RESOURCETYPE, GETCONTENTLENGTH, GETCONTENTTYPE, GETETAG, GETLASTMODIFIED, CREATIONDATE,
            DISPLAYNAME, LockPropertySource.SUPPORTEDLOCK, LockPropertySource.LOCKDISCOVERY);
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter ISO_SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'", Locale.US)
            .withZone(ZoneOffset.UTC);

    private final LockManager locks;
    private final LockMethods lockMethods;

    LiveProperties(LockManager locks, LockMethods lockMethods) {
        this.locks = locks;
        this.lockMethods = lockMethods;
    }

    static boolean isDav(QName q) {
        return "DAV:".equals(q.getNamespaceURI());
    }

    /** True for the {@code DAV:} properties Coffer answers itself (present or 404). */
    static boolean isKnown(QName q) {
        return ALL.contains(q) || q.equals(GETCONTENTLANGUAGE);
    }

    /** Whether the resource has the property: a folder has no length or content type, nothing has a language. */
    static boolean has(QName q, BasicFileAttributes a) {
        if (q.equals(GETCONTENTLENGTH) || q.equals(GETCONTENTTYPE)) {
            return !a.isDirectory();
        }
        return ALL.contains(q);
    }

    /** Appends the element of property {@code q} (one {@link #has} says is present) of the resource at {@code p}. */
    void append(QName q, DavPath p, BasicFileAttributes a, NameForm form, StringBuilder out) {
        String local = q.getLocalPart();
        out.append("<D:").append(local).append('>');
        switch (local) {
            case "resourcetype" -> out.append(a.isDirectory() ? "<D:collection/>" : "");
            case "getcontentlength" -> out.append(a.size());
            case "getcontenttype" -> out.append(Xml.escape(FileResource.contentType(p.name())));
            case "getetag" -> out.append(Xml.escape(Etags.of(a)));
            case "getlastmodified" -> HTTP_DATE.formatTo(Instant.ofEpochMilli(a.lastModifiedTime().toMillis()), out);
            case "creationdate" -> ISO_SECONDS.formatTo(Instant.ofEpochMilli(a.creationTime().toMillis()), out);
            case "displayname" -> out.append(Xml.escape(form.present(p.name())));
            case "supportedlock" -> out.append(LockPropertySource.SUPPORTED);
            case "lockdiscovery" -> {
                for (DavLock l : locks.covering(p)) {
                    out.append(lockMethods.activeLockXml(l, form));
                }
            }
            default -> throw new IllegalArgumentException("not a live property: " + local);
        }
        out.append("</D:").append(local).append('>');
    }

    private static QName dav(String local) {
        return new QName("DAV:", local);
    }
}
