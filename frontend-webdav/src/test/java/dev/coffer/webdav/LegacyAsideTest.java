package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Versions before session 34 set an overwritten target aside beside it, as a hidden
 * {@code .coffer-dav-aside-UUID} without a record of its name, and a server killed meanwhile left it
 * there, hidden from every listing, with nothing to give it back: it may be the only copy of the
 * user's data. Such a leftover is made here as that version left it (through the vault's file
 * system); a server start gives back the root's, a listing a folder's, visible as {@code set aside
 * (recovered by Coffer)}, never deleted.
 */
class LegacyAsideTest {
    private static final String LEFTOVER = DeadProperties.RESERVED_PREFIX + "aside-0b7f1c52-9a0e-4a4e-8f3c-2f0d8c1e5a11";

    @TempDir
    static Path tmp;

    /** One server for the class (a server's stop waits a second for the client's idle connection). */
    private static ServedVault served;

    @BeforeAll
    static void serve() throws IOException {
        served = new ServedVault(tmp);
    }

    @AfterAll
    static void stop() throws IOException {
        served.close();
    }

    /** Each test starts from an empty root. */
    @AfterEach
    void emptyTheRoot() throws Exception {
        served.emptyRoot();
    }

    @Test
    void aServerStartGivesBackAFolderSetAsideInTheRoot() throws Exception {
        try (ServedVault own = new ServedVault(tmp.resolve("own"))) { // not the class's: a start of another server is the point
            Path aside = Files.createDirectory(own.root.resolve(LEFTOVER));
            Files.writeString(aside.resolve("only copy.txt"), "precious");

            try (WebDavServer next = WebDavServer.start(own.root, 0)) {
                assertThat(names(own.root)).containsExactly("set aside (recovered by Coffer)");
                assertThat(Files.readString(own.root.resolve("set aside (recovered by Coffer)/only copy.txt"))).isEqualTo("precious");
                String listing = DavClient.text(new DavClient(next.url()).send("PROPFIND", "/", (String) null, "Depth", "1"));
                assertThat(listing).contains("set%20aside%20(recovered%20by%20Coffer)/");
            }
        }
    }

    @Test
    void aListingGivesBackAFileSetAsideInItsFolderBesideOneRecoveredBefore() throws Exception {
        Path sub = Files.createDirectory(served.root.resolve("sub"));
        Files.writeString(sub.resolve("set aside (recovered by Coffer)"), "earlier");
        Files.writeString(sub.resolve(LEFTOVER), "precious");
        DavClient dav = new DavClient(served.url());

        var listing = dav.send("PROPFIND", "/sub/", (String) null, "Depth", "1");

        assertThat(listing.statusCode()).isEqualTo(207);
        assertThat(DavClient.text(listing)).contains("set%20aside%20(recovered%20by%20Coffer%202)");
        assertThat(names(sub)).containsExactly("set aside (recovered by Coffer 2)", "set aside (recovered by Coffer)");
        assertThat(DavClient.text(dav.send("GET", "/sub/set%20aside%20(recovered%20by%20Coffer%202)", (String) null))).isEqualTo("precious");
        assertThat(Files.readString(sub.resolve("set aside (recovered by Coffer)"))).isEqualTo("earlier");
    }

    /** Milton answers a PROPFIND naming a DAV: extension property (its listing is FolderResource's): it gives back too. */
    /** Only the exact form an older version made: a user's own file with the prefix (made through FUSE) is left as it is. */
    @Test
    void aListingLeavesAFileNamedWithThePrefixButNoUuidAlone() throws Exception {
        Path sub = Files.createDirectory(served.root.resolve("sub"));
        List<String> own = List.of(DeadProperties.RESERVED_PREFIX + "aside-my-notes.txt",
                DeadProperties.RESERVED_PREFIX + "aside-0B7F1C52-9A0E-4A4E-8F3C-2F0D8C1E5A11",
                DeadProperties.RESERVED_PREFIX + "aside-0b7f1c52-9a0e-4a4e-8f3c-2f0d8c1e5a11.txt");
        for (String name : own) {
            Files.writeString(sub.resolve(name), "mine");
        }

        assertThat(new DavClient(served.url()).send("PROPFIND", "/sub/", (String) null, "Depth", "1").statusCode()).isEqualTo(207);

        assertThat(names(sub)).containsExactlyInAnyOrderElementsOf(own);
        assertThat(SetAside.isLegacyEntryName(LEFTOVER)).isTrue();
    }

    @Test
    void aListingMiltonAnswersGivesBackToo() throws Exception {
        Path sub = Files.createDirectory(served.root.resolve("sub"));
        Files.writeString(sub.resolve(LEFTOVER), "precious");
        DavClient dav = new DavClient(served.url());
        String quota = "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:prop><D:quota-used-bytes/></D:prop></D:propfind>";

        var listing = dav.send("PROPFIND", "/sub/", quota, "Depth", "1", "Content-Type", "application/xml");

        assertThat(listing.statusCode()).isEqualTo(207);
        assertThat(DavClient.text(listing)).contains("/sub/set%20aside%20%28recovered%20by%20Coffer%29<");
        assertThat(names(sub)).containsExactly("set aside (recovered by Coffer)");
    }

    /** A listing whose give-back moved nothing (here: refused) lists the folder once: nothing changed to list again. */
    @Test
    void aListingThatGaveNothingBackListsTheFolderOnce() throws Exception {
        dev.coffer.core.nio.RecordingFileSystem rec = new dev.coffer.core.nio.RecordingFileSystem();
        Path plain = Files.createDirectory(tmp.resolve("plain"));
        Files.createDirectory(plain.resolve("sub"));
        Files.writeString(plain.resolve("sub/" + LEFTOVER), "precious");
        rec.deleteFails = p -> p.getFileName().toString().endsWith("(recovered by Coffer)"); // its name's stale-sidecar check
        try (WebDavServer server = WebDavServer.start(rec.wrap(plain), 0)) {
            rec.listed.clear();

            assertThat(new DavClient(server.url()).send("PROPFIND", "/sub/", (String) null, "Depth", "1").statusCode()).isEqualTo(207);

            assertThat(rec.listed).containsExactly(plain.resolve("sub").toString());
            assertThat(plain.resolve("sub/" + LEFTOVER)).exists();
        }
    }

    /**
     * A folder moved or deleted while a listing gives back what it held answers 404 (it is gone),
     * never 409; what was given back goes along with the folder.
     */
    @Test
    void aFolderMovedOrDeletedWhileItsListingGivesBackAnswers404Or207() throws Exception {
        DavClient dav = new DavClient(served.url());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 30; i++) {
                Path sub = Files.createDirectory(served.root.resolve("s" + i));
                for (int j = 0; j < 20; j++) {
                    Files.writeString(sub.resolve("m" + j), "m");
                }
                Files.writeString(sub.resolve(DeadProperties.RESERVED_PREFIX + "aside-" + java.util.UUID.randomUUID()), "precious");
                boolean delete = i % 2 == 1;
                String path = "/s" + i;
                var listing = pool.submit(() -> dav.send("PROPFIND", path + "/", (String) null, "Depth", "1").statusCode());
                var change = pool.submit(() -> delete ? dav.send("DELETE", path, (String) null).statusCode()
                        : dav.send("MOVE", path, (String) null, "Destination", dav.url("/t" + path.substring(2))).statusCode());

                assertThat(change.get()).isIn(201, 204);
                assertThat(listing.get()).as("round %d", i).isIn(207, 404);
                if (!delete) {
                    try (Stream<Path> moved = Files.list(served.root.resolve("t" + i))) {
                        assertThat(moved.map(f -> f.getFileName().toString())
                                .filter(n -> n.startsWith(DeadProperties.RESERVED_PREFIX + "aside-") || n.startsWith("set aside"))).hasSize(1);
                    }
                }
            }
        } finally {
            pool.shutdown();
        }
    }

    /** The give-back is logged at WARN, Coffer's default level (it was at INFO: never shown), without the name. */
    @Test
    void aGiveBackIsLoggedAtWarnWithoutNames() throws Exception {
        Path sub = Files.createDirectory(served.root.resolve("Secret Plans"));
        Files.writeString(sub.resolve(LEFTOVER), "precious");
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> events = new ch.qos.logback.core.read.ListAppender<>();
        ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(ch.qos.logback.classic.Level.WARN);
        events.start();
        root.addAppender(events);
        try {
            assertThat(new DavClient(served.url()).send("PROPFIND", "/Secret%20Plans/", (String) null, "Depth", "1").statusCode()).isEqualTo(207);
        } finally {
            root.detachAppender(events);
        }

        assertThat(names(sub)).containsExactly("set aside (recovered by Coffer)");
        assertThat(events.list).filteredOn(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                .extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                .anySatisfy(m -> assertThat(m).contains("recovered by Coffer"))
                .allSatisfy(m -> assertThat(m).doesNotContain("Secret").doesNotContain("precious").doesNotContain(LEFTOVER));
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
