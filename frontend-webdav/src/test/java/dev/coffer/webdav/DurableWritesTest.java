package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.nio.RecordingFileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upload or a copy is on the disk before the server says so: its file is forced (fsync) before it
 * is renamed into place, so a crash after the answer cannot leave the name pointing at content that
 * never reached the disk (the old file replaced by a damaged one). Shown with a vault whose
 * ciphertext files' fsync fails (EIO): before, the PUT and the COPY answered 2xx without ever
 * forcing, and the failure went unnoticed.
 */
class DurableWritesTest {
    @TempDir
    Path tmp;

    @Test
    void aPutOrCopyWhoseFileCannotBeForcedFailsAndChangesNothing() throws Exception {
        RecordingFileSystem rec = new RecordingFileSystem();
        try (CofferFileSystem fs = CofferFileSystems.create(rec.wrap(tmp.resolve("vault")), "test passphrase".toCharArray(),
                ServedVault.FAST);
                WebDavServer server = WebDavServer.start(fs.getPath("/"), 0)) {
            DavClient dav = new DavClient(server.url());
            Path root = fs.getPath("/");
            assertThat(dav.send("PUT", "/doc.txt", "old").statusCode()).isEqualTo(201);
            Files.createDirectory(root.resolve("folder"));
            Files.writeString(root.resolve("folder/in.txt"), "in");
            rec.fileSyncFails = DurableWritesTest::isFileContent;

            assertThat(dav.send("PUT", "/doc.txt", "new").statusCode()).isEqualTo(500);
            assertThat(dav.send("PUT", "/other.txt", "other").statusCode()).isEqualTo(500);
            assertThat(dav.send("COPY", "/doc.txt", (String) null, "Destination", dav.url("/copy.txt")).statusCode()).isEqualTo(500);
            assertThat(dav.send("COPY", "/folder", (String) null, "Destination", dav.url("/copied")).statusCode()).isEqualTo(500);

            assertThat(Files.readString(root.resolve("doc.txt"))).isEqualTo("old");
            rec.fileSyncFails = null;
            try (Stream<Path> s = Files.list(root)) {
                assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("doc.txt", "folder", Staging.FOLDER);
            }
            ServerLeftovers.assertNoneIn(root);
            assertThat(dav.send("PUT", "/doc.txt", "new").statusCode()).isEqualTo(204);
            assertThat(Files.readString(root.resolve("doc.txt"))).isEqualTo("new");
        }
    }

    /** A file's ciphertext (NAME.c9r), not a folder's pointer (dir.c9r) or the vault's own atomic writes. */
    private static boolean isFileContent(Path ciphertext) {
        String name = ciphertext.getFileName().toString();
        return name.endsWith(".c9r") && !name.equals("dir.c9r");
    }
}
