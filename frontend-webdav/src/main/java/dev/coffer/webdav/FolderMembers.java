package dev.coffer.webdav;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
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
 * The members of one served folder, as both PROPFIND paths see them ({@link PropfindMethod} and
 * Milton's {@link FolderResource}): one pass of a directory stream for the names and for which of
 * them have a dead-property sidecar (so nobody looks for a sidecar that is not there), then the
 * attributes of each member, read once, without following links. Hidden sidecars, names no URL
 * could reach ({@link DavPath#validName}) and anything that is not a plain file or folder (links,
 * devices) are left out; a member removed meanwhile is simply not a member any more. Entries older
 * versions set aside here are noted in the same pass ({@link #legacyAsides}).
 *
 * <p>Not responsible for properties or for writing anything.
 */
final class FolderMembers {
    /** One member: its name (NFC, as stored), attributes, and whether it may have dead properties. */
    record Member(String name, BasicFileAttributes attrs, boolean hasSidecar) {
    }

    /** Receives one member; may fail with an I/O error (writing it out), which ends the listing. */
    @FunctionalInterface
    interface MemberSink {
        void accept(Member m) throws IOException;
    }

    private final List<Path> members;
    private final Set<String> withSidecar;
    private final List<Path> legacyAsides;

    private FolderMembers(List<Path> members, Set<String> withSidecar, List<Path> legacyAsides) {
        this.members = members;
        this.withSidecar = withSidecar;
        this.legacyAsides = legacyAsides;
    }

    /**
     * The names in the folder {@code dir} (reached without links, so its members need no walk from
     * the root), from one pass of its directory stream.
     */
    static FolderMembers of(Path dir) throws IOException {
        List<Path> members = new ArrayList<>();
        Set<String> withSidecar = new HashSet<>();
        List<Path> legacyAsides = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : iterated(stream)) {
                String raw = p.getFileName().toString();
                if (raw.startsWith(DeadProperties.SIDECAR_PREFIX + ".")) {
                    withSidecar.add(raw.substring(DeadProperties.SIDECAR_PREFIX.length() + 1));
                } else if (SetAside.isLegacyEntryName(raw)) {
                    legacyAsides.add(p);
                }
                Optional<String> name = DavPath.validName(raw);
                if (name.isPresent() && name.get().equals(raw)) {
                    members.add(p); // else a sidecar, or a name no URL could reach
                }
            }
        }
        return new FolderMembers(members, withSidecar, legacyAsides);
    }

    /**
     * The stream's members, read whole; a listing that fails as it is read (a folder store lists
     * lazily: the vault, the default provider) throws its IOException, as one that fails at the
     * open does, so that callers answer both alike (404 for a folder gone, no name in a log).
     */
    private static List<Path> iterated(DirectoryStream<Path> stream) throws IOException {
        List<Path> all = new ArrayList<>();
        try {
            stream.forEach(all::add);
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        return all;
    }

    /**
     * What versions before session 34 set aside in this folder and a killed server left there
     * ({@code .coffer-dav-aside-*}, hidden): the lister gives them back ({@link DavTree#members}).
     */
    List<Path> legacyAsides() {
        return legacyAsides;
    }

    /** Reads each member's attributes (once, without following links) and hands it to {@code each}. */
    void forEach(MemberSink each) throws IOException {
        for (Path p : members) {
            String name = p.getFileName().toString();
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                continue; // removed while listing: not a member any more
            }
            if (a.isDirectory() || a.isRegularFile()) {
                each.accept(new Member(name, a, withSidecar.contains(name)));
            }
        }
    }
}
