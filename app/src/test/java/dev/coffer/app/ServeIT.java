package dev.coffer.app;

import static dev.coffer.core.testing.Processes.deadWithin5s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.os.CredentialLeaks;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code coffer serve} as users run it: the real launcher in its own process, talked to over HTTP,
 * stopped with SIGTERM and SIGINT; with {@code --mount} (davfs2, as root) the files appear in the
 * folder it prints and reach the vault, the URL (which /proc/mounts shows) answers 401 without the
 * credential davfs2 was given, and that credential's password is in no file, mount table, command
 * line or environment ({@link CredentialLeaks}); a port in use is a clear one-line error.
 */
class ServeIT {
    private static final String PASSPHRASE = "correct horse battery";

    @TempDir
    Path tmp;

    private Path launcher;
    private Path vault;
    private final List<Process> started = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    /** A running {@code coffer serve}: its process, the URL it printed, its stderr. */
    private record Serving(Process process, String url, BufferedReader err) {}

    @BeforeEach
    void vault() throws Exception {
        launcher = Path.of(System.getProperty("coffer.launcher", "target/coffer")).toAbsolutePath();
        vault = tmp.resolve("vault");
        TestVaults.create(vault, PASSPHRASE);
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Process process(String... args) throws IOException {
        return process(null, args);
    }

    /** The launcher with {@code args}; {@code pathFirst} (may be null) goes in front of PATH. */
    private Process process(Path pathFirst, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        if (pathFirst != null) {
            pb.environment().put("PATH", pathFirst + ":" + System.getenv("PATH"));
        }
        pb.environment().put("COFFER_PASSPHRASE", PASSPHRASE);
        QuickLauncherJvm.use(pb.environment());
        pb.environment().remove("DBUS_SESSION_BUS_ADDRESS"); // no desktop session: --mount uses davfs2 (GioServeIT tests gio)
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private Serving serve(String... extra) throws IOException {
        return serve(null, extra);
    }

    private Serving serve(Path pathFirst, String... extra) throws IOException {
        List<String> args = new ArrayList<>(List.of("serve", vault.toString()));
        args.addAll(List.of(extra));
        Process p = process(pathFirst, args.toArray(new String[0]));
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
        String url = out.readLine();
        assertThat(url).as("the URL on stdout").matches("http://127\\.0\\.0\\.1:\\d+/[A-Za-z0-9_-]{22}/");
        return new Serving(p, url, err);
    }

    private HttpResponse<String> send(String method, String url, String body) throws Exception {
        HttpRequest.BodyPublisher pub = body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body);
        return http.send(HttpRequest.newBuilder(URI.create(url)).method(method, pub).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String cat(String path) throws Exception {
        Process p = process("cat", vault.toString(), path);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    private static void signal(Process p, String signal) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor()).isZero();
    }

    @Test
    void servesOverHttpAndSigtermStopsAndLocks() throws Exception {
        Serving s = serve();
        assertThat(s.err().readLine()).startsWith("coffer: serving on 127.0.0.1 only");
        assertThat(send("MKCOL", s.url() + "docs", null).statusCode()).isEqualTo(201);
        assertThat(send("PUT", s.url() + "docs/note.txt", "written over WebDAV").statusCode()).isEqualTo(201);
        assertThat(send("GET", s.url() + "docs/note.txt", null).body()).isEqualTo("written over WebDAV");
        assertThat(send("PROPFIND", s.url(), null).statusCode()).as("Depth infinity refused").isEqualTo(403);
        signal(s.process(), "TERM");
        assertThat(s.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(s.err().readLine()).isEqualTo("coffer: stopped serving; the vault is locked");
        assertThat(cat("docs/note.txt")).isEqualTo("written over WebDAV");
    }

    @Test
    void sigintDoesTheSame() throws Exception {
        SigintDisposition.assertChildrenCanReceiveSigint();
        Serving s = serve("--port", "0");
        assertThat(send("PUT", s.url() + "x.txt", "x").statusCode()).isEqualTo(201);
        signal(s.process(), "INT");
        assertThat(s.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(s.process().exitValue()).isEqualTo(130);
        assertThat(cat("x.txt")).isEqualTo("x");
    }

    @Test
    void aPortInUseIsOneClearLine() throws Exception {
        Serving first = serve();
        int port = URI.create(first.url()).getPort();
        // Another vault: the same one is refused before its port is tried (one process uses a vault at a time).
        Path other = tmp.resolve("other-vault");
        TestVaults.create(other, PASSPHRASE);
        Process second = process("serve", other.toString(), "--port", String.valueOf(port));
        assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(second.exitValue()).isEqualTo(2);
        String err = new String(second.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(err).isEqualTo("coffer: port " + port + " is in use on 127.0.0.1: choose another with --port N, or --port 0 for any free port\n");
        signal(first.process(), "TERM");
        assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aVaultServedAlreadyIsNotServedTwice() throws Exception {
        Serving first = serve();
        Process second = process("serve", vault.toString(), "--port", "0");
        assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(second.exitValue()).isNotZero();
        assertThat(new String(second.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).contains("already open in another Coffer");
        signal(first.process(), "TERM");
        assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void mountShowsTheFilesThroughDavfs2UntilStopped() throws Exception {
        assertThat(System.getProperty("user.name")).as("--mount with davfs2 needs root").isEqualTo("root");
        Serving s = serve("--mount");
        String mounted = s.err().readLine();
        assertThat(mounted).as("stderr").startsWith("coffer: mounted at ");
        Path mnt = Path.of(mounted.substring("coffer: mounted at ".length()));
        assertThat(Files.readString(Path.of("/proc/mounts"))).contains(" " + mnt + " ");
        Files.writeString(mnt.resolve("via-davfs.txt"), "through the OS client");
        assertThat(Files.readString(mnt.resolve("via-davfs.txt"))).isEqualTo("through the OS client");

        // the URL, which /proc/mounts shows every local user, opens nothing without the credential
        String secret = URI.create(s.url()).getPath().replace("/", "");
        assertThat(Files.readString(Path.of("/proc/mounts"))).contains(secret);
        HttpResponse<String> noCredential = send("GET", s.url() + "via-davfs.txt", null);
        assertThat(noCredential.statusCode()).isEqualTo(401);
        assertThat(noCredential.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"Coffer\"");
        assertThat(noCredential.body()).isEmpty();
        assertThat(send("PROPFIND", s.url(), null).statusCode()).isEqualTo(401);
        // and its password is nowhere: not in /proc/mounts, a command line or environment, davfs2's folders
        CredentialLeaks.working(s.url(), List.of(Path.of("/var/cache/davfs2"), Path.of("/etc/davfs2"),
                Path.of(System.getProperty("user.home"), ".davfs2"), tmp)).assertNoPasswordFound();

        signal(s.process(), "TERM");
        assertThat(s.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(Path.of("/proc/mounts"))).doesNotContain(" " + mnt + " ");
        assertThat(mnt).doesNotExist();
        try (var caches = Files.list(Path.of("/var/cache/davfs2"))) {
            assertThat(caches.map(p -> p.getFileName().toString())).as("davfs2's cleartext cache of the mount").noneMatch(n -> n.contains(secret));
        }
        assertThat(cat("via-davfs.txt")).isEqualTo("through the OS client");
    }

    /**
     * {@code --mount} where no client can mount (a {@code mount} on PATH that fails, no desktop
     * session): it says so and serves anyway, as without {@code --mount}: the URL it prints needs no
     * credential; the server that had one stopped: the URL the failed mount was given (logged by the
     * fake {@code mount}) differs from the printed one and gets 404 or no connection.
     */
    @Test
    void aFailedMountServesTheUrlWithoutCredential() throws Exception {
        Path arguments = tmp.resolve("mount-arguments");
        Path fakeBin = fakeMount("#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + arguments + "'\necho 'mount: refused by the test' >&2\nexit 32\n");
        Serving s = serve(fakeBin, "--mount");
        assertThat(s.err().readLine()).startsWith("coffer: not mounted: ").contains("refused by the test");
        assertThat(s.err().readLine()).startsWith("coffer: serving on 127.0.0.1 only");
        // the URL the failed mount was given is not the one printed, and serves nothing any more
        String offered = Files.readAllLines(arguments).stream().filter(a -> a.startsWith("http://")).findFirst()
                .orElseThrow(() -> new AssertionError("no URL among mount's arguments: " + arguments));
        assertThat(offered).matches("http://127\\.0\\.0\\.1:\\d+/[A-Za-z0-9_-]{22}/").isNotEqualTo(s.url());
        assertThat(URI.create(offered).getPath()).as("the secret segment").isNotEqualTo(URI.create(s.url()).getPath());
        try {
            assertThat(send("GET", offered, null).statusCode()).as("the old URL on the new server").isEqualTo(404);
        } catch (java.net.ConnectException refused) {
            // the old server's port is closed: as good
        }
        assertThat(send("PUT", s.url() + "plain.txt", "no credential needed").statusCode()).isEqualTo(201);
        assertThat(send("GET", s.url() + "plain.txt", null).body()).isEqualTo("no credential needed");
        signal(s.process(), "TERM");
        assertThat(s.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(cat("plain.txt")).isEqualTo("no credential needed");
    }
    /**
     * SIGTERM while {@code --mount} is still mounting (a {@code mount} on PATH that hangs, with a
     * child standing for mount.davfs that would mount later): serve kills the mount tools, stops
     * the server and locks the vault, says so, and no late "mount" happens.
     */
    @Test
    void aSignalWhileMountingStopsTheMountToolsAndLocks() throws Exception {
        Path started = tmp.resolve("mount-started");
        Path childPid = tmp.resolve("mount-child.pid");
        Path late = tmp.resolve("late-mount");
        // The child mounts 4 s after it started, which is before the SIGTERM below: a child still alive by 2 s after
        // that would have done so (the 4 s only need to cover the SIGTERM's way to the kill of the mount tools).
        int lateAfterSeconds = 4;
        Path fakeBin = fakeMount("#!/bin/sh\n(sleep " + lateAfterSeconds + "; touch '" + late + "') &\necho $! > '" + childPid
                + "'\necho $$ > '" + started + "'\nsleep 120\n");
        Process serve = process(fakeBin, "serve", vault.toString(), "--mount");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(started) && Files.size(started) > 0) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(started).as("the fake mount ran").exists();
        long stopping = System.nanoTime();
        long mountPid = Long.parseLong(Files.readString(started).trim());
        long childOfMount = Long.parseLong(Files.readString(childPid).trim());
        signal(serve, "TERM");
        assertThat(serve.waitFor(30, TimeUnit.SECONDS)).as("serve stops while mounting").isTrue();
        assertThat(serve.exitValue()).isEqualTo(143);
        assertThat(new String(serve.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).as("stdout: no URL was served").isEmpty();
        assertThat(new String(serve.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("coffer: stopped while mounting; the vault is locked\n");
        for (long pid : new long[] {mountPid, childOfMount}) {
            assertThat(deadWithin5s(pid)).as("process " + pid + " of the fake mount is dead").isTrue();
        }
        long waitForLate = TimeUnit.SECONDS.toMillis(lateAfterSeconds + 2) - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping);
        Thread.sleep(Math.max(0, waitForLate));
        assertThat(late).as("a late mount by the child").doesNotExist();
        // locked: the vault can be served again (it was not left in use)
        Serving again = serve();
        signal(again.process(), "TERM");
        assertThat(again.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    /** A folder holding an executable {@code mount} with {@code script}, to put first on PATH. */
    private Path fakeMount(String script) throws IOException {
        Path fakeBin = Files.createDirectories(tmp.resolve("bin"));
        Path mount = fakeBin.resolve("mount");
        Files.writeString(mount, script);
        assertThat(mount.toFile().setExecutable(true)).isTrue();
        return fakeBin;
    }
}
