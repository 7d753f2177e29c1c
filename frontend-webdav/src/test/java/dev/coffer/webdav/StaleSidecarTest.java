package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.RecordingFileSystem;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server killed between a resource's DELETE (or MOVE) and its sidecar's removal left the sidecar
 * for a name without a resource. The state is made here as that kill leaves it: properties set over
 * HTTP, then the resource removed from the vault directly (the server's first step), its sidecar
 * left. A resource made later under the name (PUT, MKCOL, COPY, MOVE) must not show those
 * properties; a resource that exists keeps its own.
 */
class StaleSidecarTest {
    @TempDir
    static Path sharedTmp;

    @TempDir
    Path tmp;

    /** The server of the tests that need no server of their own (a server's stop waits a second for the client's idle connection). */
    private static ServedVault shared;

    private ServedVault served;
    private DavClient dav;

    /** A test that stops its server and starts the next one on its root: it gets a vault of its own. */
    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
    @java.lang.annotation.Target(java.lang.annotation.ElementType.METHOD)
    private @interface OwnServer {
    }

    @BeforeAll
    static void serveShared() throws IOException {
        shared = new ServedVault(sharedTmp);
    }

    @AfterAll
    static void stopShared() throws IOException {
        shared.close();
    }

    @BeforeEach
    void serve(TestInfo test) throws IOException {
        boolean own = test.getTestMethod().orElseThrow().isAnnotationPresent(OwnServer.class);
        served = own ? new ServedVault(tmp) : shared;
        dav = new DavClient(served.url());
    }

    @AfterEach
    void stop() throws Exception {
        if (served == shared) {
            served.emptyRoot(); // the next test starts from an empty root
        } else {
            served.close();
        }
    }

    @Test
    void aFileUploadedUnderTheNameHasNoneOfTheOldProperties() throws Exception {
        leaveStaleSidecar("/name.txt", false);

        assertThat(dav.send("PUT", "/name.txt", "new").statusCode()).isEqualTo(201);

        assertThat(allprop("/name.txt")).doesNotContain("colour").doesNotContain("stale");
        assertThat(served.root.resolve(DeadProperties.SIDECAR_PREFIX + ".name.txt")).doesNotExist();
    }

    @Test
    void aFolderMadeUnderTheNameHasNoneOfTheOldProperties() throws Exception {
        leaveStaleSidecar("/name", true);

        assertThat(dav.send("MKCOL", "/name", (String) null).statusCode()).isEqualTo(201);

        assertThat(allprop("/name")).doesNotContain("colour").doesNotContain("stale");
    }

    /** A LOCK of the free name makes an empty file there (davfs2 makes every new file so: LOCK, then PUT). */
    @Test
    void aFileMadeByALockOfTheNameHasNoneOfTheOldProperties() throws Exception {
        leaveStaleSidecar("/name.txt", false);

        var lock = dav.send("LOCK", "/name.txt", DavClient.lockBody("exclusive"));
        assertThat(lock.statusCode()).isEqualTo(201);

        assertThat(allprop("/name.txt")).doesNotContain("colour").doesNotContain("stale");
        assertThat(served.root.resolve(DeadProperties.SIDECAR_PREFIX + ".name.txt")).doesNotExist();
        // the class's next test starts without the lock
        assertThat(dav.send("UNLOCK", "/name.txt", (String) null, "Lock-Token", lock.headers().firstValue("Lock-Token").orElseThrow())
                .statusCode()).isEqualTo(204);
    }

    @Test
    void aCopyToTheNameHasTheSourcesPropertiesOnly() throws Exception {
        Files.writeString(served.root.resolve("plain.txt"), "plain");
        leaveStaleSidecar("/name.txt", false);

        assertThat(dav.send("COPY", "/plain.txt", (String) null, "Destination", dav.url("/name.txt")).statusCode()).isEqualTo(201);

        assertThat(allprop("/name.txt")).doesNotContain("colour").doesNotContain("stale");
    }

    @Test
    void aMoveToTheNameHasTheSourcesPropertiesOnlyAndLeavesNoneOnItsOldName() throws Exception {
        Files.writeString(served.root.resolve("plain.txt"), "plain");
        Files.writeString(served.root.resolve("own.txt"), "own");
        assertThat(patch("/own.txt", "kept")).isEqualTo(207);
        leaveStaleSidecar("/name.txt", false);
        leaveStaleSidecar("/other.txt", false);

        assertThat(dav.send("MOVE", "/plain.txt", (String) null, "Destination", dav.url("/name.txt")).statusCode()).isEqualTo(201);
        assertThat(dav.send("MOVE", "/own.txt", (String) null, "Destination", dav.url("/other.txt")).statusCode()).isEqualTo(201);

        assertThat(allprop("/name.txt")).doesNotContain("colour").doesNotContain("stale");
        assertThat(allprop("/other.txt")).contains("kept").doesNotContain("stale");
        assertThat(served.root.resolve(DeadProperties.SIDECAR_PREFIX + ".own.txt")).doesNotExist();
        assertThat(dav.send("PUT", "/own.txt", "again").statusCode()).isEqualTo(201);
        assertThat(allprop("/own.txt")).doesNotContain("colour").doesNotContain("kept");
    }

    /** The guard against stale sidecars touches only names without a resource: an overwritten file keeps its properties. */
    @Test
    void aFileOverwrittenByAPutKeepsItsProperties() throws Exception {
        assertThat(dav.send("PUT", "/kept.txt", "one").statusCode()).isEqualTo(201);
        assertThat(patch("/kept.txt", "kept")).isEqualTo(207);

        assertThat(dav.send("PUT", "/kept.txt", "two").statusCode()).isEqualTo(204);

        assertThat(allprop("/kept.txt")).contains("kept");
    }

    /**
     * A MOVE's properties are under the new name before the resource takes it, so a server killed
     * between the two steps leaves them with the resource (at either name), never the moved resource
     * without them and them on the old name. Before, the resource was renamed first.
     */
    @Test
    void aMovesPropertiesAreUnderTheNewNameBeforeTheResourceTakesIt() throws Exception {
        RecordingFileSystem rec = new RecordingFileSystem();
        Path tree = Files.createDirectory(tmp.resolve("tree"));
        try (WebDavServer plain = WebDavServer.start(rec.wrap(tree), 0)) {
            DavClient client = new DavClient(plain.url());
            assertThat(client.send("PUT", "/src.txt", "src").statusCode()).isEqualTo(201);
            assertThat(client.send("PROPPATCH", "/src.txt", body("moving"), "Content-Type", "application/xml").statusCode()).isEqualTo(207);

            assertThat(client.send("MOVE", "/src.txt", (String) null, "Destination", client.url("/dst.txt")).statusCode()).isEqualTo(201);

            List<String> calls = rec.calls();
            int propsThere = indexOf(calls, "move-to ", "/" + DeadProperties.SIDECAR_PREFIX + ".dst.txt");
            int resourceThere = indexOf(calls, "move-to ", "/dst.txt");
            assertThat(propsThere).as("the sidecar's rename to the new name, in %s", calls).isNotNegative();
            assertThat(resourceThere).as("the resource's rename, in %s", calls).isGreaterThan(propsThere);
            assertThat(DavClient.text(client.send("PROPFIND", "/dst.txt", (String) null, "Depth", "0"))).contains("moving");
            assertThat(tree.resolve(DeadProperties.SIDECAR_PREFIX + ".src.txt")).doesNotExist();
        }
    }

    /**
     * A MOVE over a folder sets the old folder aside; a server killed after the new folder took the
     * name (state made here: the set-aside, then the rename, then no server) left the new folder
     * showing the old one's properties, and the old one, given back at the next start beside it,
     * without them. Its sidecar now goes aside with it.
     */
    @Test
    @OwnServer
    void aFolderSetAsideTakesItsPropertiesAlongAndTheFolderThatTookItsNameHasNone() throws Exception {
        assertThat(dav.send("MKCOL", "/old", (String) null).statusCode()).isEqualTo(201);
        assertThat(patch("/old", "old-props")).isEqualTo(207);
        assertThat(dav.send("MKCOL", "/new", (String) null).statusCode()).isEqualTo(201);
        served.server.close();
        new DavTree(served.root, DavUrls.random()).setAside(new DavPath(List.of("old")));
        Files.move(served.root.resolve("new"), served.root.resolve("old")); // and then killed

        try (WebDavServer next = WebDavServer.start(served.root, 0)) {
            DavClient client = new DavClient(next.url());
            assertThat(DavClient.text(client.send("PROPFIND", "/old", (String) null, "Depth", "0"))).doesNotContain("old-props");
            assertThat(DavClient.text(client.send("PROPFIND", "/old%20(recovered%20by%20Coffer)", (String) null, "Depth", "0")))
                    .contains("old-props");
        }
    }

    /**
     * Killed once the new folder was in place and before the old one was deleted (state: the
     * set-aside, then the rest of the MOVE over HTTP): the old one comes back with its properties.
     */
    @Test
    @OwnServer
    void aFolderSetAsideAndGivenBackAfterItsReplacementLandedKeepsItsProperties() throws Exception {
        assertThat(dav.send("MKCOL", "/old", (String) null).statusCode()).isEqualTo(201);
        assertThat(patch("/old", "old-props")).isEqualTo(207);
        assertThat(dav.send("MKCOL", "/new", (String) null).statusCode()).isEqualTo(201);
        assertThat(patch("/new", "new-props")).isEqualTo(207);
        new DavTree(served.root, DavUrls.random()).setAside(new DavPath(List.of("old")));
        assertThat(dav.send("MOVE", "/new", (String) null, "Destination", dav.url("/old")).statusCode()).isEqualTo(201);
        served.server.close(); // the staging folder stays: it holds the set-aside entry

        try (WebDavServer next = WebDavServer.start(served.root, 0)) {
            DavClient client = new DavClient(next.url());
            assertThat(DavClient.text(client.send("PROPFIND", "/old", (String) null, "Depth", "0"))).contains("new-props")
                    .doesNotContain("old-props");
            assertThat(DavClient.text(client.send("PROPFIND", "/old%20(recovered%20by%20Coffer)", (String) null, "Depth", "0")))
                    .contains("old-props");
        }
    }

    /** A set-aside put back (its replacement failed) has its properties again, and the name had none of them meanwhile. */
    @Test
    @OwnServer
    void aFolderPutBackAfterAFailedReplacementHasItsPropertiesAgain() throws Exception {
        assertThat(dav.send("MKCOL", "/old", (String) null).statusCode()).isEqualTo(201);
        assertThat(patch("/old", "old-props")).isEqualTo(207);
        served.server.close();
        DavTree tree = new DavTree(served.root, DavUrls.random());
        DavPath old = new DavPath(List.of("old"));

        Path aside = tree.setAside(old);
        assertThat(tree.props().read(old)).isEmpty();
        tree.putBack(aside, old);

        assertThat(tree.props().read(old)).containsValue("old-props");
        try (Stream<Path> left = Files.list(served.root.resolve(Staging.FOLDER))) {
            assertThat(left.map(f -> f.getFileName().toString())).isEmpty();
        }
    }

    /**
     * A put-back whose name was taken meanwhile (a vault's rename into it made but reported failed)
     * is refused before any property moves: the resource at the name keeps its own, the entry its
     * own, given back beside it at the next start. Before, the entry's sidecar replaced the name's
     * first, so the two resources' properties were swapped.
     */
    @Test
    @OwnServer
    void aPutBackOntoATakenNameLeavesBothResourcesTheirProperties() throws Exception {
        assertThat(dav.send("MKCOL", "/old", (String) null).statusCode()).isEqualTo(201);
        assertThat(patch("/old", "old-props")).isEqualTo(207);
        assertThat(dav.send("MKCOL", "/new", (String) null).statusCode()).isEqualTo(201);
        assertThat(patch("/new", "new-props")).isEqualTo(207);
        served.server.close();
        DavTree tree = new DavTree(served.root, DavUrls.random());
        DavPath old = new DavPath(List.of("old"));
        Path aside = tree.setAside(old);
        tree.move(new DavPath(List.of("new")), old, DavTree.Target.FREE); // the rename that was reported failed

        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> tree.putBack(aside, old)))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);

        assertThat(tree.props().read(old)).containsValue("new-props").doesNotContainValue("old-props");
        assertThat(SetAside.propsOf(aside)).exists();
        try (WebDavServer next = WebDavServer.start(served.root, 0)) {
            DavClient client = new DavClient(next.url());
            assertThat(DavClient.text(client.send("PROPFIND", "/old", (String) null, "Depth", "0"))).contains("new-props")
                    .doesNotContain("old-props");
            assertThat(DavClient.text(client.send("PROPFIND", "/old%20(recovered%20by%20Coffer)", (String) null, "Depth", "0")))
                    .contains("old-props").doesNotContain("new-props");
        }
    }

    /**
     * A start that gives back a set-aside folder beside its taken name, killed after its sidecar went
     * to the recovered name and before the folder followed (state made here), leaves the sidecar
     * there: the next start must keep it, it is the folder's own. Before, that start found no
     * {@code ENTRY.props} and dropped it as a dead resource's.
     */
    @Test
    @OwnServer
    void aStartKilledAfterGivingASetAsideItsPropertiesKeepsThemAtTheNextStart() throws Exception {
        assertThat(dav.send("MKCOL", "/old", (String) null).statusCode()).isEqualTo(201);
        assertThat(patch("/old", "old-props")).isEqualTo(207);
        served.server.close();
        Path entry = new DavTree(served.root, DavUrls.random()).setAside(new DavPath(List.of("old")));
        Files.createDirectory(served.root.resolve("old")); // its replacement took the name, then killed
        Files.move(SetAside.propsOf(entry), served.root.resolve(DeadProperties.SIDECAR_PREFIX + ".old (recovered by Coffer)"));
        // ... the next start moved its sidecar to the recovered name, and was killed before the folder followed

        try (WebDavServer next = WebDavServer.start(served.root, 0)) {
            DavClient client = new DavClient(next.url());
            var recovered = client.send("PROPFIND", "/old%20(recovered%20by%20Coffer)", (String) null, "Depth", "0");
            assertThat(recovered.statusCode()).isEqualTo(207);
            assertThat(DavClient.text(recovered)).contains("old-props");
            assertThat(DavClient.text(client.send("PROPFIND", "/old", (String) null, "Depth", "0"))).doesNotContain("old-props");
        }
    }

    private static int indexOf(List<String> calls, String operation, String pathEnd) {
        for (int i = 0; i < calls.size(); i++) {
            String c = calls.get(i);
            if (c.startsWith(operation) && c.endsWith(pathEnd)) {
                return i;
            }
        }
        return -1;
    }

    /** What a server killed right after removing the resource (before its sidecar) leaves: the sidecar alone. */
    private void leaveStaleSidecar(String path, boolean folder) throws Exception {
        int made = folder ? dav.send("MKCOL", path, (String) null).statusCode() : dav.send("PUT", path, "old").statusCode();
        assertThat(made).isEqualTo(201);
        assertThat(patch(path, "stale")).isEqualTo(207);
        assertThat(allprop(path)).contains("stale");
        Path resource = served.root.resolve(path.substring(1));
        Files.delete(resource);
        assertThat(resource.resolveSibling(DeadProperties.SIDECAR_PREFIX + "." + resource.getFileName())).exists();
    }

    private int patch(String path, String value) throws Exception {
        return dav.send("PROPPATCH", path, body(value), "Content-Type", "application/xml").statusCode();
    }

    private static String body(String value) {
        return "<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\" xmlns:Z=\"urn:z\"><D:set><D:prop>"
                + "<Z:colour>" + value + "</Z:colour></D:prop></D:set></D:propertyupdate>";
    }

    private String allprop(String path) throws Exception {
        var r = dav.send("PROPFIND", path, (String) null, "Depth", "0");
        assertThat(r.statusCode()).isEqualTo(207);
        return DavClient.text(r);
    }
}
