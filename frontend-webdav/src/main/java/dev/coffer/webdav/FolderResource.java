package dev.coffer.webdav;

import io.milton.resource.CollectionResource;
import io.milton.resource.Resource;
import java.io.IOException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * A folder as Milton sees it for PROPFIND Depth 1 when Milton answers it: its members as
 * {@link FolderMembers} lists them.
 *
 * <p>Not responsible for creating or removing members.
 */
final class FolderResource extends PathResource implements CollectionResource {

    FolderResource(DavTree tree, DavPath path, BasicFileAttributes attrs, NameForm form, boolean mayHaveDeadProperties) {
        super(tree, path, attrs, form, mayHaveDeadProperties);
    }

    @Override
    public Resource child(String childName) {
        return DavPath.validName(childName).flatMap(n -> PathResourceFactory.resource(tree, path.child(n), form)).orElse(null);
    }

    @Override
    public List<? extends Resource> getChildren() {
        List<PathResource> out = new ArrayList<>();
        try {
            tree.members(path).forEach(
                    m -> out.add(PathResourceFactory.resource(tree, path.child(m.name()), m.attrs(), form, m.hasSidecar())));
        } catch (IOException e) {
            throw PathFree.unchecked("listing a folder", e);
        }
        return out;
    }
}
