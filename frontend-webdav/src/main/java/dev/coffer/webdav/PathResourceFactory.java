package dev.coffer.webdav;

import io.milton.http.HttpManager;
import io.milton.http.Request;
import io.milton.http.ResourceFactory;
import io.milton.resource.Resource;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * Milton's view of the served {@link java.nio.file.Path} tree (Milton's own file factory is built
 * on {@code java.io.File} and cannot reach a NIO file system such as an unlocked vault): maps a
 * decoded request path below the secret segment to a {@link FileResource} or {@link FolderResource},
 * or to nothing (404) for anything else.
 *
 * <p>Not responsible for validating raw URLs (the servlet does, before Milton runs).
 */
final class PathResourceFactory implements ResourceFactory {
    private final DavTree tree;

    PathResourceFactory(DavTree tree) {
        this.tree = tree;
    }

    @Override
    public Resource getResource(String host, String decodedPath) {
        String prefix = "/" + tree.urls().secret();
        if (!decodedPath.equals(prefix) && !decodedPath.startsWith(prefix + "/")) {
            return null;
        }
        Request req = HttpManager.request();
        NameForm form = NameForm.forUserAgent(req == null ? null : req.getUserAgentHeader());
        return DavPath.parse(decodedPath.substring(prefix.length())).flatMap(p -> resource(tree, p, form)).orElse(null);
    }

    static Optional<PathResource> resource(DavTree tree, DavPath p, NameForm form) {
        return tree.attributes(p).map(a -> resource(tree, p, a, form, true));
    }

    static PathResource resource(DavTree tree, DavPath p, BasicFileAttributes a, NameForm form, boolean mayHaveDeadProperties) {
        return a.isDirectory() ? new FolderResource(tree, p, a, form, mayHaveDeadProperties)
                : new FileResource(tree, p, a, form, mayHaveDeadProperties);
    }
}
