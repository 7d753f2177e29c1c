package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mount commands Coffer prints for macOS and Windows, the davfs2 configuration and cache naming, gio's URI and folder. */
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

    @Test
    void davfs2sErrorsNameTheUrlWithoutItsSecret() {
        String url = "http://127.0.0.1:4242/AbC-d_eFgH/";
        assertThat(Davfs2Mount.withoutSecret("mount.davfs: Please enter the username to authenticate with server\n" + url + " or hit enter for none.", url))
                .isEqualTo("mount.davfs: Please enter the username to authenticate with server\nhttp://127.0.0.1:4242/SECRET/ or hit enter for none.");
    }

    @Test
    void gioMountsTheSecretSegmentAndFindsGvfsFusesFolder() throws Exception {
        try (WebDavServer server = WebDavServer.start(Files.createDirectory(tmp.resolve("root")), 0)) {
            assertThat(GioMount.uri(server)).isEqualTo("dav://127.0.0.1:" + server.port() + "/" + server.secretSegment() + "/");
        }
        String info = "name: s\nuri: dav://127.0.0.1:1/s\nlocal path: /run/user/0/gvfs/dav:host=127.0.0.1,port=1,ssl=false,prefix=%2Fs\n"
                + "unix mount: gvfsd-fuse /run/user/0/gvfs fuse.gvfsd-fuse rw\nattributes:\n  standard::name: s";
        assertThat(GioMount.localPath(info)).hasValue("/run/user/0/gvfs/dav:host=127.0.0.1,port=1,ssl=false,prefix=%2Fs");
        assertThat(GioMount.localPath("name: s\nuri: dav://127.0.0.1:1/s\nattributes:")).isEmpty();
    }
}
