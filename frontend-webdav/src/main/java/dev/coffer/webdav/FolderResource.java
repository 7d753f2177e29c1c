package dev.coffer.webdav;

import io.milton.http.exceptions.NotFoundException;
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

    /** Runs right before a listing (tests only: to remove the folder between its resolution and its listing). */
    static volatile java.util.function.Consumer<DavPath> beforeListingForTests = p -> {};

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
        beforeListingForTests.accept(path);
        try {
            tree.members(path).forEach(
                    m -> out.add(PathResourceFactory.resource(tree, path.child(m.name()), m.attrs(), form, m.hasSidecar())));
        } catch (java.nio.file.NoSuchFileException e) {
            if (isGone()) {
                // moved or deleted since Milton resolved it: 404, as for Coffer's own PROPFIND (Milton
                // answers its NotFoundException so, anything else with 500, and this method may not declare it)
                throw FolderResource.<RuntimeException>sneaky(new NotFoundException("the folder is gone"));
            }
            throw PathFree.unchecked("listing a folder", e);
        } catch (IOException e) {
            throw PathFree.unchecked("listing a folder", e);
        }
        return out;
    }

    private boolean isGone() {
        return tree.attributes(path).isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }
}
