package dev.coffer.app.vaults;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the WebDAV mounter logs about a failed OS mount never holds the URL's secret segment. */
class WebDavMounterLogTest {
    @Test
    void theSecretSegmentIsReplacedWhereverItAppears() {
        String url = "http://127.0.0.1:41234/q3VxT0k2bmRZbF9hZ3JfTg/";
        String message = "no WebDAV client to mount with: ...; or mount " + url + " yourself (davfs2: "
                + "http://127.0.0.1:41234/q3VxT0k2bmRZbF9hZ3JfTg: 401)";
        String logged = WebDavMounter.withoutSecret(message, url);
        assertThat(logged).doesNotContain("q3VxT0k2bmRZbF9hZ3JfTg").contains("http://127.0.0.1:41234/SECRET/ yourself")
                .contains("41234/SECRET: 401");
    }
}
