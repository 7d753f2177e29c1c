package dev.coffer.webdav;

import io.milton.resource.CollectionResource;
import io.milton.resource.Resource;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A folder as Milton sees it for PROPFIND Depth 1: its members, without the server's hidden
 * sidecars and without anything that is not a plain file or folder (links, devices) or whose name
 * could not be addressed ({@link DavPath#validName}).
 *
 * <p>Not responsible for creating or removing members.
 */
final class FolderResource extends PathResource implements CollectionResource {

    FolderResource(DavTree tree, DavPath path, BasicFileAttributes attrs, NameForm form) {
        super(tree, path, attrs, form);
    }

    @Override
    public Resource child(String childName) {
        return DavPath.validName(childName).flatMap(n -> PathResourceFactory.resource(tree, path.child(n), form)).orElse(null);
    }

    @Override
    public List<? extends Resource> getChildren() {
        List<PathResource> out = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tree.file(path))) {
            for (Path p : dir) {
                String raw = p.getFileName().toString();
                Optional<String> name = DavPath.validName(raw);
                if (name.isEmpty() || !name.get().equals(raw)) {
                    continue; // a sidecar, or a name no URL could reach
                }
                PathResourceFactory.resource(tree, path.child(raw), form).ifPresent(out::add);
            }
        } catch (IOException e) {
            throw PathFree.unchecked("listing a folder", e);
        }
        return out;
    }
}
