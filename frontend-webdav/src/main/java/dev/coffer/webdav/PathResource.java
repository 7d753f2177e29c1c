package dev.coffer.webdav;

import io.milton.http.Auth;
import io.milton.http.Request;
import io.milton.resource.PropFindableResource;
import java.io.IOException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Date;
import java.util.Map;
import javax.xml.namespace.QName;

/**
 * What Milton sees of one file or folder when it answers PROPFIND: the path, its
 * attributes read once per request, and its name in the client's {@link NameForm}. Authentication
 * is not Milton's job here (the server is loopback-only behind an unguessable path), so every
 * request is authorised.
 *
 * <p>Not responsible for changing anything (Coffer's own methods are) or for properties
 * ({@link DeadPropertySource}, {@link LockPropertySource}).
 */
abstract sealed class PathResource implements PropFindableResource permits FileResource, FolderResource {
    final DavTree tree;
    final DavPath path;
    final BasicFileAttributes attrs;
    final NameForm form;
    /** False when a folder listing showed that no sidecar exists, so PROPFIND need not look for one. */
    final boolean mayHaveDeadProperties;

    PathResource(DavTree tree, DavPath path, BasicFileAttributes attrs, NameForm form, boolean mayHaveDeadProperties) {
        this.tree = tree;
        this.path = path;
        this.attrs = attrs;
        this.form = form;
        this.mayHaveDeadProperties = mayHaveDeadProperties;
    }

    private Map<QName, String> deadProperties;

    /** The dead properties, read at most once per request (PROPFIND asks for each name separately). */
    Map<QName, String> deadProperties() throws IOException {
        if (deadProperties == null) {
            deadProperties = mayHaveDeadProperties ? tree.props().read(path) : Map.of();
        }
        return deadProperties;
    }

    String etag() {
        return Etags.of(attrs);
    }

    @Override
    public String getUniqueId() {
        return etag();
    }

    @Override
    public String getName() {
        return form.present(path.name());
    }

    @Override
    public Object authenticate(String user, String password) {
        return user;
    }

    @Override
    public boolean authorise(Request request, Request.Method method, Auth auth) {
        return true;
    }

    @Override
    public String getRealm() {
        return "coffer";
    }

    @Override
    public Date getModifiedDate() {
        return new Date(attrs.lastModifiedTime().toMillis());
    }

    @Override
    public Date getCreateDate() {
        return new Date(attrs.creationTime().toMillis());
    }

    @Override
    public String checkRedirect(Request request) {
        return null;
    }
}
