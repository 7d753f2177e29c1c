package dev.coffer.webdav;

import io.milton.http.Auth;
import io.milton.http.Request;
import io.milton.resource.PropFindableResource;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Date;

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

    PathResource(DavTree tree, DavPath path, BasicFileAttributes attrs, NameForm form) {
        this.tree = tree;
        this.path = path;
        this.attrs = attrs;
        this.form = form;
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
