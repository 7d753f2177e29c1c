package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server over a plain folder of the default file system (no vault): the frontend needs nothing
 * but java.nio.file. Symbolic links, which a plain folder can hold, are neither followed nor
 * listed, so a link cannot reach outside the served root; dead properties live in sidecars.
 */
class PlainFolderTest {
    @TempDir
    Path tmp;

    private Path root;
    private Path outside;
    private WebDavServer server;
    private DavClient dav;

    @BeforeEach
    void serve() throws IOException {
        root = Files.createDirectory(tmp.resolve("root"));
        outside = Files.createDirectory(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "outside the root");
        Files.createSymbolicLink(root.resolve("link-dir"), outside);
        Files.createSymbolicLink(root.resolve("link-file"), outside.resolve("secret.txt"));
        Files.writeString(root.resolve("plain.txt"), "inside");
        server = WebDavServer.start(root, 0);
        dav = new DavClient(server.url());
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    /**
     * A name of 238 to 255 bytes cannot have a sidecar in a plain folder (its name would pass 255
     * bytes): making, moving, copying and deleting such a resource works as before sidecars were
     * cleared at free names (in session 36 PUT and MKCOL answered 400 there).
     */
    @Test
    void resourcesWithNamesTooLongForASidecarAreMadeMovedAndDeleted() throws Exception {
        String file = "a".repeat(245);
        String folder = "b".repeat(238);
        String moved = "c".repeat(255);

        assertThat(dav.send("PUT", "/" + file, "long").statusCode()).isEqualTo(201);
        assertThat(dav.send("MKCOL", "/" + folder, (String) null).statusCode()).isEqualTo(201);
        assertThat(dav.send("MOVE", "/" + file, (String) null, "Destination", dav.url("/" + moved)).statusCode()).isEqualTo(201);
        assertThat(dav.send("COPY", "/" + moved, (String) null, "Destination", dav.url("/" + file)).statusCode()).isEqualTo(201);
        assertThat(dav.send("DELETE", "/" + folder, (String) null).statusCode()).isEqualTo(204);

        assertThat(Files.readString(root.resolve(moved))).isEqualTo("long");
        assertThat(Files.readString(root.resolve(file))).isEqualTo("long");
        assertThat(root.resolve(folder)).doesNotExist();

        assertThat(dav.send("PROPPATCH", "/plain.txt", "<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\">"
                + "<D:set><D:prop><k xmlns=\"urn:k\">v</k></D:prop></D:set></D:propertyupdate>").statusCode()).isEqualTo(207);
        assertThat(dav.send("MOVE", "/plain.txt", (String) null, "Destination", dav.url("/" + folder)).statusCode()).isEqualTo(400);
        assertThat(Files.readString(root.resolve("plain.txt"))).isEqualTo("inside");
        assertThat(root.resolve(".coffer-dav-props.plain.txt")).exists();
        assertThat(root.resolve(folder)).doesNotExist();
    }

    @Test
    void servesAPlainFolder() throws Exception {
        assertThat(DavClient.text(dav.send("GET", "/plain.txt", (String) null))).isEqualTo("inside");
        assertThat(dav.send("PUT", "/new.txt", "new").statusCode()).isEqualTo(201);
        assertThat(Files.readString(root.resolve("new.txt"))).isEqualTo("new");
        HttpResponse<byte[]> patch = dav.send("PROPPATCH", "/new.txt", "<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\">"
                + "<D:set><D:prop><k xmlns=\"urn:k\">v</k></D:prop></D:set></D:propertyupdate>");
        assertThat(patch.statusCode()).isEqualTo(207);
        assertThat(root.resolve(".coffer-dav-props.new.txt")).exists();
        assertThat(dav.send("MOVE", "/new.txt", (String) null, "Destination", dav.url("/moved.txt")).statusCode()).isEqualTo(201);
        assertThat(root.resolve(".coffer-dav-props.moved.txt")).exists();
        assertThat(root.resolve(".coffer-dav-props.new.txt")).doesNotExist();
        String prop = DavClient.text(dav.send("PROPFIND", "/moved.txt", "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:prop>"
                + "<k xmlns=\"urn:k\"/></D:prop></D:propfind>", "Depth", "0"));
        assertThat(prop).contains("<k xmlns=\"urn:k\">v</k>");
        String listing = DavClient.text(dav.send("PROPFIND", "/", (String) null, "Depth", "1"));
        assertThat(listing).as("allprop of a listing shows the dead properties of the members that have them")
                .containsOnlyOnce("<k xmlns=\"urn:k\">v</k>");
    }

    @Test
    void symbolicLinksAreNeitherFollowedNorListed() throws Exception {
        assertThat(dav.send("GET", "/link-file", (String) null).statusCode()).isEqualTo(404);
        assertThat(dav.send("GET", "/link-dir/secret.txt", (String) null).statusCode()).isEqualTo(404);
        assertThat(dav.send("PUT", "/link-dir/planted.txt", "x").statusCode()).isEqualTo(409);
        assertThat(dav.send("DELETE", "/link-dir/secret.txt", (String) null).statusCode()).isEqualTo(404);
        assertThat(dav.send("MKCOL", "/link-dir/sub", (String) null).statusCode()).isEqualTo(409);
        assertThat(dav.send("COPY", "/plain.txt", (String) null, "Destination", dav.url("/link-dir/copy.txt")).statusCode()).isEqualTo(409);
        String listing = DavClient.text(dav.send("PROPFIND", "/", (String) null, "Depth", "1"));
        assertThat(listing).contains("plain.txt").doesNotContain("link-");
        assertThat(outside.resolve("planted.txt")).doesNotExist();
        assertThat(outside.resolve("copy.txt")).doesNotExist();
        assertThat(Files.readString(outside.resolve("secret.txt"))).isEqualTo("outside the root");
    }
}
