package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mount commands Coffer prints for macOS and Windows, and the davfs2 configuration and cache naming. */
class OsMountTest {
    @TempDir
    Path tmp;

    @Test
    void instructionsNameTheServersAddress() throws Exception {
        try (WebDavServer server = WebDavServer.start(Files.createDirectory(tmp.resolve("root")), 0)) {
            String text = OsMount.instructions(server);
            assertThat(text).contains("mount_webdav -S " + server.url() + " /Volumes/coffer")
                    .contains("net use * \\\\127.0.0.1@" + server.port() + "\\DavWWWRoot\\" + server.secretSegment())
                    .contains("FileSizeLimitInBytes");
        }
    }

    @Test
    void davfs2NeverPromptsAndUsesLocks() {
        assertThat(Davfs2Mount.CONFIG.lines()).contains("ask_auth 0", "use_locks 1", "delay_upload 0", "buf_size 64");
        assertThat(Davfs2Mount.cacheKey("http://127.0.0.1:4242/AbC-d_e/")).isEqualTo("127.0.0.1-AbC-d_e+");
    }
}
