package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.nio.RecordingFileSystem;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's staging folder ({@link Staging}) seen from outside: it does not disturb the root
 * (clients poll the root's ETag), what a killed server set aside there comes back at the next start
 * (never deleted), and a folder DELETE that fails half-way leaves nothing half-visible.
 */
class StagingTest {
    private static final String PROPS = "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:prop><D:getetag/>"
            + "<D:getlastmodified/></D:prop></D:propfind>";

    @TempDir
    Path tmp;

    /** Before, every upload made and removed the staging folder: the root's ETag changed for each upload anywhere. */
    @Test
    void uploadsIntoASubfolderLeaveTheRootsEtagAndDateAlone() throws Exception {
        try (ServedVault served = new ServedVault(tmp)) {
            DavClient dav = new DavClient(served.url());
            Files.createDirectory(served.root.resolve("sub"));
            assertThat(dav.send("PUT", "/sub/first.txt", "1").statusCode()).isEqualTo(201); // the first upload may make the folder
            String before = rootTagAndDate(dav);

            for (int i = 0; i < 3; i++) {
                Thread.sleep(5);
                assertThat(dav.send("PUT", "/sub/n" + i + ".txt", "n").statusCode()).isEqualTo(201);
                assertThat(dav.send("PUT", "/sub/first.txt", "again " + i).statusCode()).isEqualTo(204);
                assertThat(dav.send("COPY", "/sub/first.txt", (String) null, "Destination", dav.url("/sub/c.txt")).statusCode())
                        .isIn(201, 204);
            }

            assertThat(rootTagAndDate(dav)).isEqualTo(before);
        }
    }

    /** A clean stop takes the staging folder away: a tree that is not served holds nothing of the server's. */
    @Test
    void aCleanStopLeavesNothingOfTheServersInTheRoot() throws Exception {
        try (ServedVault served = new ServedVault(tmp)) {
            DavClient dav = new DavClient(served.url());
            assertThat(dav.send("PUT", "/a.txt", "a").statusCode()).isEqualTo(201);
            assertThat(dav.send("COPY", "/a.txt", (String) null, "Destination", dav.url("/b.txt")).statusCode()).isEqualTo(201);
            served.server.close();
            assertThat(names(served.root)).containsExactly("a.txt", "b.txt");
        }
    }

    /**
     * A stop after the vault was locked (coffer serve's signal handler may lock before the server has
     * stopped): the server stops without an exception; before, the staging folder's removal threw
     * ClosedFileSystemException out of the stop (a stack trace on coffer serve's stderr).
     */
    @Test
    void aStopAfterTheVaultWasLockedStopsQuietly() throws Exception {
        try (ServedVault served = new ServedVault(tmp)) {
            DavClient dav = new DavClient(served.url());
            assertThat(dav.send("PUT", "/a.txt", "a").statusCode()).isEqualTo(201);
            served.fs.close();

            assertThatCode(served.server::close).doesNotThrowAnyException();
        }
    }

    /** A server killed while it had a folder set aside (an overwriting MOVE or COPY): the next one puts it back. */
    @Test
    void aFolderSetAsideByAKilledServerIsBackUnderItsNameAtTheNextStart() throws Exception {
        try (ServedVault served = new ServedVault(tmp)) {
            Files.createDirectories(served.root.resolve("docs/old"));
            Files.writeString(served.root.resolve("docs/old/a.txt"), "a");
            served.server.close();
            new DavTree(served.root, DavUrls.random()).setAside(new DavPath(List.of("docs", "old"))); // and then killed
            assertThat(served.root.resolve("docs/old")).doesNotExist();

            try (WebDavServer next = WebDavServer.start(served.root, 0)) {
                assertThat(Files.readString(served.root.resolve("docs/old/a.txt"))).isEqualTo("a");
                assertThat(names(served.root.resolve("docs"))).containsExactly("old");
                assertThat(new DavClient(next.url()).send("GET", "/docs/old/a.txt", (String) null).statusCode()).isEqualTo(200);
            }
            assertThat(names(served.root)).containsExactly("docs");
        }
    }

    /** The name was taken meanwhile (the new folder was in place): the old one is kept beside it under a clear name. */
    @Test
    void aFolderSetAsideWhoseNameIsTakenIsKeptUnderARecoveredName() throws Exception {
        try (ServedVault served = new ServedVault(tmp)) {
            Files.createDirectories(served.root.resolve("docs/old"));
            Files.writeString(served.root.resolve("docs/old/a.txt"), "a");
            served.server.close();
            new DavTree(served.root, DavUrls.random()).setAside(new DavPath(List.of("docs", "old")));
            Files.createDirectory(served.root.resolve("docs/old"));
            Files.writeString(served.root.resolve("docs/old/b.txt"), "b");

            try (WebDavServer next = WebDavServer.start(served.root, 0)) {
                assertThat(next.port()).isPositive();
                assertThat(names(served.root.resolve("docs"))).containsExactly("old", "old (recovered by Coffer)");
                assertThat(Files.readString(served.root.resolve("docs/old (recovered by Coffer)/a.txt"))).isEqualTo("a");
                assertThat(Files.readString(served.root.resolve("docs/old/b.txt"))).isEqualTo("b");
            }
        }
    }

    /**
     * A vault's move can fail after its rename (the folder fsync that makes it durable fails): the
     * overwritten folder was then in the staging folder, and the failed set-aside deleted it there
     * as if nothing had moved, while the MOVE failed: the folder it was to replace was gone.
     */
    @Test
    void aSetAsideWhoseMoveFailsAfterItsRenameKeepsTheFolder() throws Exception {
        RecordingFileSystem rec = new RecordingFileSystem();
        try (CofferFileSystem fs = CofferFileSystems.create(rec.wrap(tmp.resolve("vault")), "test passphrase".toCharArray(),
                ServedVault.FAST);
                WebDavServer server = WebDavServer.start(fs.getPath("/"), 0)) {
            DavClient dav = new DavClient(server.url());
            Path root = fs.getPath("/");
            assertThat(dav.send("PUT", "/made.txt", "the staging folder is made").statusCode()).isEqualTo(201);
            Files.createDirectories(root.resolve("docs/old"));
            Files.writeString(root.resolve("docs/old/a.txt"), "a");
            Files.createDirectory(root.resolve("new"));
            rec.failFolderSyncsFromMove(0); // the set-aside rename is made, its fsync fails

            assertThat(dav.send("MOVE", "/new", (String) null, "Destination", dav.url("/docs/old")).statusCode()).isEqualTo(500);

            rec.folderSyncFails = folder -> false;
            assertThat(Files.readString(root.resolve("docs/old/a.txt"))).isEqualTo("a");
        }
    }

    /**
     * An overwriting MOVE whose set-aside and put-back both fail after their renames (a vault's folder
     * fsync): the folder is back, its record left; before, the put-back's failure never released its
     * count, so a clean stop skipped its sweep and the staging folder stayed in the root until the next start.
     */
    @Test
    void aPutBackThatFailsStillLetsACleanStopRemoveTheStagingFolder() throws Exception {
        RecordingFileSystem rec = new RecordingFileSystem();
        try (CofferFileSystem fs = CofferFileSystems.create(rec.wrap(tmp.resolve("vault")), "test passphrase".toCharArray(),
                ServedVault.FAST)) {
            Path root = fs.getPath("/");
            try (WebDavServer server = WebDavServer.start(root, 0)) {
                DavClient dav = new DavClient(server.url());
                assertThat(dav.send("PUT", "/made.txt", "the staging folder is made").statusCode()).isEqualTo(201);
                Files.createDirectories(root.resolve("docs/old"));
                Files.writeString(root.resolve("docs/old/a.txt"), "a");
                Files.createDirectory(root.resolve("new"));
                rec.failFolderSyncsFromMove(1); // every fsync after the set-aside's rename fails: its own, the put-back's

                assertThat(dav.send("MOVE", "/new", (String) null, "Destination", dav.url("/docs/old")).statusCode()).isEqualTo(500);

                rec.folderSyncFails = folder -> false;
                assertThat(Files.readString(root.resolve("docs/old/a.txt"))).isEqualTo("a"); // put back, never deleted
                assertThat(names(root.resolve(Staging.FOLDER))).anyMatch(n -> n.endsWith(SetAside.RECORD_SUFFIX));
            }
            assertThat(root.resolve(Staging.FOLDER)).doesNotExist();
            assertThat(Files.readString(root.resolve("docs/old/a.txt"))).isEqualTo("a");
        }
    }

    /**
     * A folder DELETE whose dead properties cannot be dropped (500): before, its staged entry stayed
     * counted, and a clean stop left the staging folder (and the deleted folder in it) in the root.
     */
    @Test
    void aFolderDeleteWhosePropertiesCannotBeDroppedLeavesNothingAfterACleanStop() throws Exception {
        Path plain = Files.createDirectory(tmp.resolve("plain"));
        Files.createDirectories(plain.resolve("folder"));
        Files.writeString(plain.resolve("folder/a.txt"), "a");
        RecordingFileSystem rec = new RecordingFileSystem();
        try (WebDavServer server = WebDavServer.start(rec.wrap(plain), 0)) {
            DavClient dav = new DavClient(server.url());
            assertThat(dav.send("PROPPATCH", "/folder", "<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\"><D:set><D:prop>"
                    + "<z xmlns=\"urn:z\">1</z></D:prop></D:set></D:propertyupdate>").statusCode()).isEqualTo(207);
            rec.deleteFails = p -> p.getFileName() != null && p.getFileName().toString().startsWith(DeadProperties.SIDECAR_PREFIX);

            assertThat(dav.send("DELETE", "/folder", (String) null).statusCode()).isEqualTo(403); // the sidecar's delete is refused

            rec.deleteFails = p -> false;
        }
        assertThat(names(plain)).noneMatch(n -> n.equals("folder") || n.equals(Staging.FOLDER));
    }

    /** A read-only vault with a killed server's leftovers in its staging folder still serves (they stay). */
    @Test
    void aReadOnlyVaultWithLeftoversStillServes() throws Exception {
        Path vault;
        try (ServedVault served = new ServedVault(tmp)) {
            Files.createDirectories(served.root.resolve("docs/old"));
            Files.writeString(served.root.resolve("docs/old/a.txt"), "a");
            served.server.close();
            new DavTree(served.root, DavUrls.random()).setAside(new DavPath(List.of("docs", "old")));
            vault = tmp.resolve("vault");
        }
        try (var ro = dev.coffer.core.nio.CofferFileSystems.open(vault, "test passphrase".toCharArray(), true);
                WebDavServer server = WebDavServer.start(ro.getPath("/"), 0)) {
            DavClient dav = new DavClient(server.url());
            assertThat(dav.send("PROPFIND", "/docs", (String) null, "Depth", "1").statusCode()).isEqualTo(207);
            assertThat(dav.send("PUT", "/docs/new.txt", "x").statusCode()).isEqualTo(403);
        }
    }

    /**
     * A folder whose delete fails half-way (a member that cannot be removed): before, the client saw
     * the folder half-deleted; now it is renamed out of sight first, and the rest goes at the next start.
     */
    @Test
    void aFolderDeleteThatFailsHalfWayLeavesNothingHalfVisible() throws Exception {
        Path plain = Files.createDirectory(tmp.resolve("plain"));
        Files.createDirectories(plain.resolve("folder/sub"));
        Files.writeString(plain.resolve("folder/a.txt"), "a");
        Files.writeString(plain.resolve("folder/sub/stuck.txt"), "stuck");
        Files.writeString(plain.resolve("folder/z.txt"), "z");
        RecordingFileSystem rec = new RecordingFileSystem();
        rec.deleteFails = p -> p.getFileName() != null && p.getFileName().toString().equals("stuck.txt");
        try (WebDavServer server = WebDavServer.start(rec.wrap(plain), 0)) {
            DavClient dav = new DavClient(server.url());

            dav.send("DELETE", "/folder", (String) null);

            assertThat(plain.resolve("folder")).doesNotExist();
            assertThat(DavClient.text(dav.send("PROPFIND", "/", (String) null, "Depth", "1"))).doesNotContain("folder");
        }
        assertThat(rec.calls()).anyMatch(c -> c.startsWith("move ") && c.endsWith("/folder")); // out of sight first
        rec.deleteFails = p -> false;
        try (WebDavServer next = WebDavServer.start(rec.wrap(plain), 0)) {
            assertThat(DavClient.text(new DavClient(next.url()).send("PROPFIND", "/", (String) null, "Depth", "1"))).doesNotContain("folder");
            assertThat(names(plain)).isEmpty(); // the next start finished the delete
        }
    }

    /** A folder holding a locked member is refused before anything of it moves. */
    @Test
    void aFolderWithALockedMemberIsNotDeletedAtAll() throws Exception {
        try (ServedVault served = new ServedVault(tmp)) {
            DavClient dav = new DavClient(served.url());
            Files.createDirectory(served.root.resolve("folder"));
            Files.writeString(served.root.resolve("folder/m.txt"), "m");
            assertThat(dav.send("LOCK", "/folder/m.txt", DavClient.lockBody("exclusive")).statusCode()).isEqualTo(200);

            assertThat(dav.send("DELETE", "/folder", (String) null).statusCode()).isEqualTo(423);

            assertThat(Files.readString(served.root.resolve("folder/m.txt"))).isEqualTo("m");
            Path staging = served.root.resolve(Staging.FOLDER);
            if (Files.exists(staging)) {
                assertThat(names(staging)).isEmpty();
            }
        }
    }

    private static String rootTagAndDate(DavClient dav) throws Exception {
        HttpResponse<byte[]> r = dav.send("PROPFIND", "/", PROPS, "Depth", "0", "Content-Type", "application/xml");
        assertThat(r.statusCode()).isEqualTo(207);
        String xml = DavClient.text(r);
        return value(xml, "getetag") + " " + value(xml, "getlastmodified");
    }

    private static String value(String xml, String property) {
        Matcher m = Pattern.compile(property + ">([^<]*)<").matcher(xml);
        assertThat(m.find()).as(property + " in " + xml).isTrue();
        return m.group(1);
    }

    static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
