package dev.coffer.app.vaults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.app.os.CredentialLeaks;
import dev.coffer.app.os.DesktopSession;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WebDavMounter} with a real loopback server (of a plain folder), spoken to over HTTP, and
 * mounted by gio on a private desktop session ({@link DesktopSession}) as the app does in GNOME;
 * that server requires the credential gio was given (its URL alone gets 401), whose password is
 * nowhere in the session's folders, command lines or environments; when the OS mount fails, a
 * plain server's URL instead.
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

    /**
     * An OS mount that fails (gio on a session bus that is not there; davfs2 ruled out by not
     * running as root, as the app sees it): the drive is a new server's URL, which needs no
     * credential, and unmounting stops it.
     */
    @Test
    void aFailedOsMountLeavesAPlainUrl() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        String bus = System.getProperty(DesktopSession.BUS_PROPERTY);
        String user = System.getProperty("user.name");
        Drive drive;
        try {
            System.setProperty(DesktopSession.BUS_PROPERTY, "unix:path=" + tmp.resolve("no-bus-here"));
            System.setProperty("user.name", "not-root");
            drive = new WebDavMounter(true).mount(root, new MountRequest("Taxes", tmp.resolve("unused"), false, 0));
        } finally {
            restore(DesktopSession.BUS_PROPERTY, bus);
            restore("user.name", user);
        }
        try {
            assertThat(drive.location()).as("the drive is a URL").matches("http://127\\.0\\.0\\.1:\\d+/[A-Za-z0-9_-]{22}/");
            HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(drive.location() + "plain.txt"))
                    .PUT(HttpRequest.BodyPublishers.ofString("no credential needed")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(put.statusCode()).as("PUT without a credential").isBetween(200, 204);
            assertThat(root.resolve("plain.txt")).hasContent("no credential needed");
        } finally {
            drive.unmount(false);
        }
        assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(URI.create(drive.location())).GET().build(),
                HttpResponse.BodyHandlers.discarding())).isInstanceOf(java.io.IOException.class);
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
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
                // the server's URL (in gvfs's folder name) opens nothing without the credential gio was given
                String url = urlOf(mounted);
                HttpResponse<String> noCredential = http.send(HttpRequest.newBuilder(URI.create(url + "hello.txt")).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(noCredential.statusCode()).isEqualTo(401);
                assertThat(noCredential.body()).isEmpty();
                List<Path> sessionFolders = new ArrayList<>();
                for (String dir : List.of("home", "cache", "data", "config")) {
                    sessionFolders.add(tmp.resolve("session").resolve(dir));
                }
                CredentialLeaks.working(url, sessionFolders).assertNoPasswordFound();
            } finally {
                drive.unmount(false);
            }
            assertThat(drive.isMounted()).isFalse();
            assertThat(Path.of(drive.location())).doesNotExist();
            Process list = session.command("gio", "mount", "-l").start();
            assertThat(new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).doesNotContain("dav://127.0.0.1:");
        }
    }

    /** The server's URL of a gvfsd-fuse folder named {@code dav:host=127.0.0.1,port=P,ssl=false,prefix=%2FSECRET}. */
    private static String urlOf(Path gvfsFolder) {
        Matcher m = Pattern.compile("dav:host=127\\.0\\.0\\.1,port=(\\d+),ssl=false,prefix=%2F([A-Za-z0-9_-]+)")
                .matcher(gvfsFolder.getFileName().toString());
        assertThat(m.matches()).as(gvfsFolder.toString()).isTrue();
        return "http://127.0.0.1:" + m.group(1) + "/" + m.group(2) + "/";
    }

    /**
     * A lock while a program has a file open for writing through the gio mount: gvfs would drop that
     * file's writes, so the lock says the drive is busy and leaves it mounted (server running, the
     * program can go on writing); locking anyway unmounts at once.
     */
    @Test
    void aLockWhileAFileIsOpenForWritingIsBusyUntilForced() throws Exception {
        assertThat(Path.of("/usr/libexec/gvfsd-dav")).as("gvfs-backends (scripts/test.sh installs it)").isExecutable();
        Path root = Files.createDirectories(tmp.resolve("root"));
        try (DesktopSession session = DesktopSession.startBusOnly(tmp.resolve("session"))) {
            Drive drive = new WebDavMounter(true).mount(root, new MountRequest("Busy", tmp.resolve("unused"), false, 0));
            Path mounted = Path.of(drive.location());
            FileChannel writer = FileChannel.open(mounted.resolve("open.txt"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            try {
                writer.write(ByteBuffer.wrap("still writing".getBytes(StandardCharsets.UTF_8)));
                assertThatThrownBy(() -> drive.unmount(false)).isInstanceOfSatisfying(VaultException.class,
                        e -> assertThat(e.problem()).isEqualTo(Problem.DRIVE_BUSY));
                assertThat(drive.isMounted()).isTrue();
                writer.write(ByteBuffer.wrap(", and more".getBytes(StandardCharsets.UTF_8)));
                Files.writeString(mounted.resolve("other.txt"), "the drive still works");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!Files.exists(root.resolve("other.txt")) && System.nanoTime() < deadline) {
                    Thread.sleep(100); // gvfsd-fuse uploads just after close() returned
                }
                assertThat(root.resolve("other.txt")).hasContent("the drive still works");
                drive.unmount(true);
                assertThat(drive.isMounted()).isFalse();
            } finally {
                try {
                    writer.close();
                } catch (java.io.IOException gone) {
                    // the forced unmount took the file away under it, as the lock-anyway warning says
                }
                if (drive.isMounted()) {
                    drive.unmount(true);
                }
            }
            Process list = session.command("gio", "mount", "-l").start();
            assertThat(new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).doesNotContain("dav://127.0.0.1:");
        }
    }
}
