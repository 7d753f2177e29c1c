package dev.coffer.webdav;

import io.milton.resource.CollectionResource;
import io.milton.resource.Resource;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A folder as Milton sees it for PROPFIND Depth 1: its members, without the server's hidden
 * sidecars and without anything that is not a plain file or folder (links, devices) or whose name
 * could not be addressed ({@link DavPath#validName}).
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
        // One pass over the folder: member names, and which of them have a sidecar (so PROPFIND
        // reads no sidecar that is not there). This folder was reached without links, so members
        // need no walk from the root: their own attributes, without following links, suffice.
        Path dir = tree.file(path);
        List<Path> members = new ArrayList<>();
        Set<String> withSidecar = new HashSet<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : stream) {
                String raw = p.getFileName().toString();
                if (raw.startsWith(DeadProperties.SIDECAR_PREFIX + ".")) {
                    withSidecar.add(raw.substring(DeadProperties.SIDECAR_PREFIX.length() + 1));
                }
                Optional<String> name = DavPath.validName(raw);
                if (name.isPresent() && name.get().equals(raw)) {
                    members.add(p); // else a sidecar, or a name no URL could reach
                }
            }
        } catch (IOException e) {
            throw PathFree.unchecked("listing a folder", e);
        }
        List<PathResource> out = new ArrayList<>(members.size());
        for (Path p : members) {
            String name = p.getFileName().toString();
            try {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (a.isDirectory() || a.isRegularFile()) {
                    out.add(PathResourceFactory.resource(tree, path.child(name), a, form, withSidecar.contains(name)));
                }
            } catch (IOException e) {
                // removed while listing: not a member any more
            }
        }
        return out;
    }
}
