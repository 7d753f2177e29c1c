package dev.coffer.app.vaults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.app.os.DesktopSession;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WebDavMounter} with a real loopback server (of a plain folder), spoken to over HTTP, and
 * mounted by gio on a private desktop session ({@link DesktopSession}) as the app does in GNOME.
 */
class WebDavMounterIT {
    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void servesTheTreeAtItsUrlUntilUnmounted() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Drive drive = new WebDavMounter(false).mount(root, new MountRequest("Taxes", tmp.resolve("unused"), false, 0));
        assertThat(drive.method()).isEqualTo(MountMethod.WEBDAV);
        assertThat(drive.location()).startsWith("http://127.0.0.1:");
        assertThat(drive.revealTarget()).isEqualTo(URI.create(drive.location()));
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(drive.location() + "hello.txt"))
                .PUT(HttpRequest.BodyPublishers.ofString("over WebDAV")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).isBetween(200, 204);
        assertThat(root.resolve("hello.txt")).hasContent("over WebDAV");
        drive.unmount(false);
        assertThat(drive.isMounted()).isFalse();
        assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(URI.create(drive.location())).GET().build(),
                HttpResponse.BodyHandlers.discarding())).isInstanceOf(java.io.IOException.class);
    }

    @Test
    void aPortTakenByAnotherProgramIsPortInUseASecondVaultGetsAnotherPort() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        WebDavMounter mounter = new WebDavMounter(false);
        try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int taken = other.getLocalPort();
            assertThatThrownBy(() -> mounter.mount(root, new MountRequest("Taxes", tmp, false, taken)))
                    .isInstanceOfSatisfying(VaultException.class, e -> {
                        assertThat(e.problem()).isEqualTo(Problem.PORT_IN_USE);
                        assertThat(e.detail()).contains(String.valueOf(taken));
                    });
        }
        int preferred;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            preferred = probe.getLocalPort();
        }
        Drive first = mounter.mount(root, new MountRequest("A", tmp, false, preferred));
        Drive second = mounter.mount(root, new MountRequest("B", tmp, false, preferred));
        try {
            assertThat(first.location()).startsWith("http://127.0.0.1:" + preferred + "/");
            assertThat(second.location()).doesNotStartWith("http://127.0.0.1:" + preferred + "/");
        } finally {
            first.unmount(false);
            second.unmount(false);
        }
    }

    @Test
    void mountsWithGioInADesktopSessionAndUnmounts() throws Exception {
        assertThat(Path.of("/usr/libexec/gvfsd-dav")).as("gvfs-backends (scripts/test.sh installs it)").isExecutable();
        Path root = Files.createDirectories(tmp.resolve("root"));
        try (DesktopSession session = DesktopSession.startBusOnly(tmp.resolve("session"))) {
            Drive drive = new WebDavMounter(true).mount(root, new MountRequest("Taxes", tmp.resolve("unused"), false, 0));
            try {
                assertThat(drive.location()).as("gvfsd-fuse's folder").startsWith(session.runtimeDir().resolve("gvfs/dav:host=127.0.0.1,").toString());
                Path mounted = Path.of(drive.location());
                assertThat(drive.revealTarget()).isEqualTo(mounted.toUri());
                Files.writeString(mounted.resolve("hello.txt"), "through gvfs");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!Files.exists(root.resolve("hello.txt")) && System.nanoTime() < deadline) {
                    Thread.sleep(100); // gvfsd-fuse uploads just after close() returned
                }
                assertThat(root.resolve("hello.txt")).hasContent("through gvfs");
            } finally {
                drive.unmount(false);
            }
            assertThat(drive.isMounted()).isFalse();
            assertThat(Path.of(drive.location())).doesNotExist();
            Process list = session.command("gio", "mount", "-l").start();
            assertThat(new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).doesNotContain("dav://127.0.0.1:");
        }
    }
}
