package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.RecordingFileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An overwriting MOVE or COPY whose new resource is in place has succeeded, even if the overwritten
 * one, set aside, cannot be discarded: it answers success (before: the failure escaped and the
 * request answered 403 or 500 after it had done its work), and the next start's sweep ends what is left.
 */
class DiscardFailureTest {
    @TempDir
    Path tmp;

    @Test
    void aMoveOverAFolderWhoseOldFolderCannotBeDiscardedAnswersSuccess() throws Exception {
        RecordingFileSystem rec = new RecordingFileSystem();
        Path plain = Files.createDirectory(tmp.resolve("plain"));
        Files.createDirectory(plain.resolve("old"));
        Files.writeString(plain.resolve("old/was.txt"), "old");
        Files.createDirectory(plain.resolve("new"));
        Files.writeString(plain.resolve("new/is.txt"), "new");
        try (WebDavServer server = WebDavServer.start(rec.wrap(plain), 0)) {
            DavClient dav = new DavClient(server.url());
            rec.deleteFails = p -> p.getFileName().toString().endsWith(SetAside.RECORD_SUFFIX);

            assertThat(dav.send("MOVE", "/new", (String) null, "Destination", dav.url("/old")).statusCode()).isEqualTo(204);

            assertThat(Files.readString(plain.resolve("old/is.txt"))).isEqualTo("new");
            assertThat(plain.resolve("new")).doesNotExist();
            assertThat(dav.send("PROPFIND", "/old", (String) null, "Depth", "0").statusCode()).isEqualTo(207);
            rec.deleteFails = p -> false;
        }
        try (WebDavServer next = WebDavServer.start(rec.wrap(plain), 0)) {
            try (Stream<Path> names = Files.list(plain)) {
                assertThat(names.map(p -> p.getFileName().toString())).containsExactly("old");
            }
            assertThat(plain.resolve("old/was.txt")).doesNotExist();
            assertThat(DavClient.text(new DavClient(next.url()).send("GET", "/old/is.txt", (String) null))).isEqualTo("new");
        }
    }
}
