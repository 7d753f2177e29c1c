package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder deleted (or moved) after Milton resolved it for a PROPFIND Depth 1 and before it listed
 * it: the answer is 404, as for our own PROPFIND (before, Milton answered 500).
 */
class VanishedFolderPropfindTest {
    /** A PROPFIND naming an extension property: Milton answers it, not Coffer's own PROPFIND. */
    private static final String MILTONS = "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:prop><D:quota-used-bytes/></D:prop></D:propfind>";

    @TempDir
    Path tmp;

    @AfterEach
    void noHook() {
        FolderResource.beforeListingForTests = p -> {};
    }

    @Test
    void aFolderDeletedBeforeMiltonListsItIs404() throws Exception {
        try (ServedVault served = new ServedVault(tmp)) {
            Path folder = Files.createDirectory(served.root.resolve("gone"));
            Files.writeString(folder.resolve("member.txt"), "member");
            FolderResource.beforeListingForTests = p -> deleteTree(folder);

            var listing = new DavClient(served.url()).send("PROPFIND", "/gone/", MILTONS, "Depth", "1", "Content-Type", "application/xml");

            assertThat(folder).doesNotExist();
            assertThat(listing.statusCode()).isEqualTo(404);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
