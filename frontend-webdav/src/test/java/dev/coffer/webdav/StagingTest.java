package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

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
