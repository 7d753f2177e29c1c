package dev.coffer.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.app.os.CredentialLeaks;
import dev.coffer.app.os.DesktopSession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code coffer serve --mount} in a GNOME-like session: a private D-Bus session bus with GNOME
 * Keyring's Secret Service ({@link DesktopSession}) on which gvfs starts on demand, so {@code
 * --mount} chooses {@code gio mount}. Ordinary tools ({@code cp}, {@code cmp}, {@code cat}, {@code mkdir}, {@code gio copy})
 * write and read through gvfsd-fuse's folder; the files land encrypted in the vault (no cleartext
 * name or content in it) and read back with {@code coffer cat}; SIGTERM unmounts ({@code gio mount
 * -l} no longer lists it, the folder is gone) after gvfs has uploaded a file written just before
 * and after a program still writing a file there has closed it (or, after 30 s, by force, saying so: here
 * after {@value #HELD_WAIT_SECONDS} s, through GioMount's test property);
 * and gvfs leaves nothing cleartext in the session's home, cache, data, config or runtime folders.
 * The server requires the credential that gio was given on its standard input: the URL alone gets
 * 401, and the password is in none of the session's folders, command lines or environments, and
 * the keyring holds no item for the server or the user {@code coffer} ({@code secret-tool search}).
 * A missing gvfs part is a failure naming its Debian package (scripts/test.sh installs them).
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GioServeIT {
    private static final String PASSPHRASE = "correct horse battery";
    private static final String NOTE = "cleartext note written through gvfs";
    /**
     * How long the stop waits for a file held open before it forces the unmount, in the test that holds one:
     * GioMount's 30 s shortened through its test property (GioMountTest checks the 30 s default).
     */
    private static final long HELD_WAIT_SECONDS = 4;

    @TempDir
    static Path tmp;

    private static DesktopSession session;
    private final List<Process> started = new ArrayList<>();

    @BeforeAll
    static void startSession() throws Exception {
        for (String[] part : new String[][] {{"/usr/bin/gio", "libglib2.0-bin"}, {"/usr/libexec/gvfsd", "gvfs-daemons"},
                {"/usr/libexec/gvfsd-dav", "gvfs-backends"}, {"/usr/libexec/gvfsd-fuse", "gvfs-fuse"}}) {
            assertThat(Path.of(part[0])).as("gio mount needs " + part[0] + " (Debian package " + part[1]
                    + "): run scripts/test.sh, which installs it").isExecutable();
        }
        session = DesktopSession.start(tmp.resolve("session")); // with GNOME Keyring: where gvfs would save a password
        // the search below must be able to find something: a probe item it does find. The keyring
        // daemon may still be starting under load (a store then fails or is not found yet): retried
        // for up to 20 s, the store's exit status checked.
        String found = "";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!found.contains("attribute.coffer-test = probe") && System.nanoTime() < deadline) {
            if (storeProbe()) {
                found = secretToolSearch("coffer-test", "probe");
            }
            if (!found.contains("attribute.coffer-test = probe")) {
                Thread.sleep(500);
            }
        }
        assertThat(found).as("secret-tool search finds the probe").contains("attribute.coffer-test = probe");
    }

    /** Stores the keyring probe item; whether {@code secret-tool store} succeeded. */
    private static boolean storeProbe() throws Exception {
        Process store = session.secretTool("store", "--label", "coffer test probe", "coffer-test", "probe");
        try (java.io.OutputStream in = store.getOutputStream()) {
            in.write("probe".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(store.waitFor(10, TimeUnit.SECONDS)).as("secret-tool store").isTrue();
        return store.exitValue() == 0;
    }

    /** {@code secret-tool search --all} in the session's keyring: the items' attributes (empty: none). */
    private static String secretToolSearch(String... attributes) throws Exception {
        List<String> args = new ArrayList<>(List.of("search", "--all"));
        args.addAll(List.of(attributes));
        Process p = session.secretTool(args.toArray(String[]::new));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("secret-tool search").isTrue();
        return out;
    }

    @AfterAll
    static void stopSession() throws Exception {
        if (session == null) {
            return;
        }
        Path gvfs = session.runtimeDir().resolve("gvfs");
        session.close(); // unmounts gvfsd-fuse's folder, stops gvfsd and its helpers
        assertThat(mounted(gvfs)).as(gvfs + " mounted after the session ended").isFalse();
    }

    private static boolean mounted(Path folder) throws IOException {
        return Files.readString(Path.of("/proc/mounts")).contains(" " + folder + " ");
    }

    @AfterEach
    void stopProcesses() throws Exception {
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A process in the session, with the launcher's JDK and the passphrase. */
    private Process run(String... command) throws IOException {
        return runWithJavaOpts(null, command);
    }

    /** As {@link #run(String...)}; {@code cofferJavaOpts} (may be null) are extra JVM options for the launcher. */
    private Process runWithJavaOpts(String cofferJavaOpts, String... command) throws IOException {
        ProcessBuilder pb = session.command(command).directory(tmp.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("COFFER_PASSPHRASE", PASSPHRASE);
        QuickLauncherJvm.use(pb.environment());
        if (cofferJavaOpts != null) {
            pb.environment().put("COFFER_JAVA_OPTS", QuickLauncherJvm.OPTS + " " + cofferJavaOpts);
        }
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        started.add(p);
        return p;
    }

    /** Runs a command to its end; its output, or an AssertionError with it. */
    private String output(String... command) throws Exception {
        Process p = run(command);
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + ": " + err).isZero();
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    private static String launcher() {
        return Path.of(System.getProperty("coffer.launcher", "target/coffer")).toAbsolutePath().toString();
    }

    /** A running {@code coffer serve --mount}: its process, its stderr, gvfsd-fuse's folder and gvfs's URI of the mount. */
    private record Serving(Process process, BufferedReader err, Path gvfsFolder, String davUri, String url) {}

    /** Creates {@code vault} and serves it with {@code --mount}; checks that gio mounted it where it says. */
    private Serving serveMounted(Path vault) throws Exception {
        return serveMounted(vault, null);
    }

    /** As {@link #serveMounted(Path)}; {@code cofferJavaOpts} (may be null) are the serving launcher's extra JVM options. */
    private Serving serveMounted(Path vault, String cofferJavaOpts) throws Exception {
        TestVaults.create(vault, PASSPHRASE);
        Process serve = runWithJavaOpts(cofferJavaOpts, launcher(), "serve", vault.toString(), "--mount");
        BufferedReader out = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
        BufferedReader err = new BufferedReader(new InputStreamReader(serve.getErrorStream(), StandardCharsets.UTF_8));
        String url = out.readLine();
        assertThat(url).as("the URL on stdout").matches("http://127\\.0\\.0\\.1:\\d+/[A-Za-z0-9_-]{22}/");
        int port = URI.create(url).getPort();
        String secret = URI.create(url).getPath().replace("/", "");
        String mounted = err.readLine();
        Path gvfsFolder = session.runtimeDir().resolve("gvfs/dav:host=127.0.0.1,port=" + port + ",ssl=false,prefix=%2F" + secret);
        assertThat(mounted).as("--mount chose gio and printed gvfsd-fuse's folder").isEqualTo("coffer: mounted at " + gvfsFolder);
        assertThat(err.readLine()).startsWith("coffer: serving on 127.0.0.1 only");
        String davUri = "dav://127.0.0.1:" + port + "/" + secret;
        assertThat(output("gio", "mount", "-l")).contains("-> " + davUri);
        assertThat(gvfsFolder).isDirectory();
        return new Serving(serve, err, gvfsFolder, davUri, url);
    }

    private static void terminate(Process p) throws Exception {
        assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor()).isZero();
    }

    @Test
    void mountsThroughGioWritesLandEncryptedAndStoppingUnmounts() throws Exception {
        Path vault = tmp.resolve("vault");
        Serving s = serveMounted(vault);
        Process serve = s.process();
        Path gvfsFolder = s.gvfsFolder();
        String davUri = s.davUri();

        // ordinary tools through gvfsd-fuse's folder
        Path random = tmp.resolve("random.bin");
        byte[] bytes = new byte[3 * 1024 * 1024 + 17];
        new Random(4).nextBytes(bytes);
        Files.write(random, bytes);
        output("mkdir", gvfsFolder.resolve("Reports").toString());
        output("cp", random.toString(), gvfsFolder.resolve("Reports/figures.bin").toString());
        Files.writeString(gvfsFolder.resolve("note.txt"), NOTE);
        // gvfsd-fuse uploads when the kernel releases the file, just after close() returned: wait for it
        Path note = tmp.resolve("note.txt");
        Files.writeString(note, NOTE);
        awaitUploaded(note, gvfsFolder.resolve("note.txt"));
        awaitUploaded(random, gvfsFolder.resolve("Reports/figures.bin"));
        assertThat(output("cat", gvfsFolder.resolve("note.txt").toString())).isEqualTo(NOTE);
        output("cmp", random.toString(), gvfsFolder.resolve("Reports/figures.bin").toString());
        // and gio's own copy, through the dav:// URI (waits for the upload)
        output("gio", "copy", random.toString(), davUri + "/copied.bin");
        output("cmp", random.toString(), gvfsFolder.resolve("copied.bin").toString());
        try (Stream<Path> listing = Files.list(gvfsFolder)) {
            assertThat(listing.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("Reports", "note.txt", "copied.bin");
        }

        // encrypted in the vault: no cleartext name or content
        assertNoCleartextUnder(vault, List.of("note.txt", "Reports", "figures.bin", "copied.bin"));

        // the URL, which the command lines of gio show, opens nothing without the credential gio was given on stdin
        HttpResponse<String> noCredential = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(s.url() + "note.txt")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(noCredential.statusCode()).isEqualTo(401);
        assertThat(noCredential.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"Coffer\"");
        assertThat(noCredential.body()).isEmpty();
        // and gvfs stored its password nowhere: not in the session's folders, a command line or environment,
        CredentialLeaks.working(s.url(), sessionFoldersButTheMount()).assertNoPasswordFound();
        // nor in the keyring (whose files are encrypted, so the scan above cannot see into them)
        assertThat(secretToolSearch("server", "127.0.0.1")).as("keyring items for the server").doesNotContain("attribute.");
        assertThat(secretToolSearch("user", "coffer")).as("keyring items for the user coffer").doesNotContain("attribute.");

        // written just before the stop: the unmount waits for gvfs's upload
        Files.writeString(gvfsFolder.resolve("last.txt"), "written just before SIGTERM");
        terminate(serve);
        assertThat(serve.waitFor(120, TimeUnit.SECONDS)).as("coffer serve stops").isTrue();
        assertThat(s.err().lines().toList()).as("stderr after SIGTERM").containsExactly("coffer: stopped serving; the vault is locked");
        assertThat(serve.exitValue()).isEqualTo(143);
        assertThat(output("gio", "mount", "-l")).as("gio mount -l after the stop").doesNotContain(davUri);
        assertThat(gvfsFolder).doesNotExist();

        assertThat(output(launcher(), "cat", vault.toString(), "note.txt")).isEqualTo(NOTE);
        assertThat(output(launcher(), "cat", vault.toString(), "last.txt")).isEqualTo("written just before SIGTERM");
        Path back = tmp.resolve("back.bin");
        Files.write(back, output(launcher(), "cat", vault.toString(), "Reports/figures.bin").getBytes(StandardCharsets.ISO_8859_1));
        assertThat(back).hasSameBinaryContentAs(random);
        Files.write(back, output(launcher(), "cat", vault.toString(), "copied.bin").getBytes(StandardCharsets.ISO_8859_1));
        assertThat(back).hasSameBinaryContentAs(random);

        // nothing cleartext left by gvfs in the session's folders
        for (String dir : List.of("home", "cache", "data", "config", "run")) {
            assertNoCleartextUnder(tmp.resolve("session").resolve(dir), List.of("note.txt", "figures.bin", "copied.bin", "last.txt"));
        }
    }

    @Test
    void theStopWaitsForAFileStillBeingWrittenThroughTheMount() throws Exception {
        Path vault = tmp.resolve("vault-writing");
        Serving s = serveMounted(vault);
        try (FileChannel writing = FileChannel.open(s.gvfsFolder().resolve("late.txt"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            writing.write(ByteBuffer.wrap("begun before SIGTERM, ".getBytes(StandardCharsets.UTF_8)));
            terminate(s.process());
            Thread.sleep(2000);
            assertThat(s.process().isAlive()).as("coffer serve waits for the writer").isTrue();
            writing.write(ByteBuffer.wrap("finished after it".getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(s.process().waitFor(120, TimeUnit.SECONDS)).as("coffer serve stops").isTrue();
        assertThat(s.err().lines().toList()).as("stderr after SIGTERM").containsExactly("coffer: stopped serving; the vault is locked");
        assertThat(output(launcher(), "cat", vault.toString(), "late.txt")).isEqualTo("begun before SIGTERM, finished after it");
    }

    @Test
    void aFileHeldOpenThroughTheMountMakesTheStopForceTheUnmountAndSaySo() throws Exception {
        Path vault = tmp.resolve("vault-held");
        Serving s = serveMounted(vault, "-Dcoffer.gio.busyWaitSeconds=" + HELD_WAIT_SECONDS);
        FileChannel held = FileChannel.open(s.gvfsFolder().resolve("held.txt"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        held.write(ByteBuffer.wrap("still open when serving stops".getBytes(StandardCharsets.UTF_8)));
        long stopping = System.nanoTime();
        terminate(s.process());
        assertThat(s.process().waitFor(120, TimeUnit.SECONDS)).as("coffer serve stops").isTrue();
        assertThat(System.nanoTime() - stopping).as("waited for the writer first").isGreaterThanOrEqualTo(TimeUnit.SECONDS.toNanos(HELD_WAIT_SECONDS));
        assertThat(s.err().lines().toList()).as("stderr after SIGTERM").containsExactly(
                "coffer: unmounting " + s.gvfsFolder() + " failed: I/O error: files were still open for writing through the mount after " + HELD_WAIT_SECONDS + " s (process ["
                        + ProcessHandle.current().pid() + "]); unmounted by force: what was written to them is not in the vault",
                "coffer: stopped serving; the vault is locked");
        assertThat(output("gio", "mount", "-l")).as("gio mount -l after the stop").doesNotContain(s.davUri());
        assertThatThrownBy(() -> held.write(ByteBuffer.wrap("more".getBytes(StandardCharsets.UTF_8))))
                .as("writing to the file after the forced unmount").isInstanceOf(IOException.class);
        held.close();
        assertThat(s.gvfsFolder()).doesNotExist();
        assertThat(output(launcher(), "ls", vault.toString())).as("the vault after the forced unmount").doesNotContain("held.txt");
    }

    /** The session's home, cache, data, config and runtime folders, without gvfsd-fuse's folder (the mount itself). */
    private static List<Path> sessionFoldersButTheMount() throws IOException {
        Path root = tmp.resolve("session");
        List<Path> folders = new ArrayList<>();
        for (String dir : List.of("home", "cache", "data", "config")) {
            folders.add(root.resolve(dir));
        }
        try (Stream<Path> run = Files.list(root.resolve("run"))) {
            run.filter(p -> !p.getFileName().toString().equals("gvfs")).forEach(folders::add);
        }
        return folders;
    }

    /** Waits up to 30 s until {@code throughGvfs} reads back as {@code expected} (gvfs uploads after close() returned). */
    private static void awaitUploaded(Path expected, Path throughGvfs) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                if (Files.mismatch(expected, throughGvfs) == -1) {
                    return;
                }
                last = "differs";
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(100);
        }
        throw new AssertionError(throughGvfs + " did not read back as written within 30 s: " + last);
    }

    /** No file under {@code dir} is named like one of {@code names}, and no regular file contains one or the notes. */
    private static void assertNoCleartextUnder(Path dir, List<String> names) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.toList();
        }
        for (Path f : files) {
            assertThat(names).as("a cleartext name under " + dir).doesNotContain(f.getFileName().toString());
            if (Files.isRegularFile(f)) {
                String content = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                assertThat(content).as("cleartext in " + f).doesNotContain(NOTE).doesNotContain("written just before SIGTERM")
                        .doesNotContain(names);
            }
        }
    }
}
