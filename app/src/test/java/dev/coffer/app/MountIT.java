package dev.coffer.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.fuse.MountTable;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code coffer mount} as users run it: the real launcher in its own process, stopped by signals,
 * unmounted from outside, killed. Every test leaves nothing mounted (checked in the mount table).
 */
class MountIT {
    private static final String PASSPHRASE = "correct horse battery";

    @TempDir
    Path tmp;

    private Path launcher;
    private Path vault;
    private final List<Process> started = new ArrayList<>();
    private final List<Path> mountPoints = new ArrayList<>();

    /** A running {@code coffer mount}: its process, the mount point it printed, and its stderr so far. */
    private record Mounted(Process process, Path mountPoint, BufferedReader err) {
        String errLine() throws IOException {
            return err.readLine();
        }
    }

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
        for (Path p : mountPoints) {
            if (MountTable.isMounted(p)) {
                new ProcessBuilder("fusermount", "-u", "-z", p.toString()).start().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError(p + " was still mounted after the test");
            }
        }
    }

    private Process process(Map<String, String> extraEnv, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        pb.environment().put("COFFER_PASSPHRASE", PASSPHRASE);
        QuickLauncherJvm.use(pb.environment());
        pb.environment().putAll(extraEnv);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private Mounted mount(String... extra) throws IOException {
        Path mnt = tmp.resolve("mnt");
        mountPoints.add(mnt);
        List<String> args = new ArrayList<>(List.of("mount", vault.toString(), mnt.toString()));
        args.addAll(List.of(extra));
        Process p = process(Map.of(), args.toArray(new String[0]));
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
        String printed = out.readLine();
        assertThat(printed).as("the mount point on stdout").isEqualTo(mnt.toString());
        assertThat(MountTable.isMounted(mnt)).isTrue();
        return new Mounted(p, mnt, err);
    }

    private static void signal(Process p, String signal) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor()).isZero();
    }

    private String cat(String path) throws Exception {
        Process p = process(Map.of(), "cat", vault.toString(), path);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    @Test
    void sigtermUnmountsLocksAndRemovesTheMountPointItCreated() throws Exception {
        Mounted m = mount();
        assertThat(m.errLine()).startsWith("coffer: mounted");
        Files.writeString(m.mountPoint().resolve("note.txt"), "written through the mount");
        signal(m.process(), "TERM");
        assertThat(m.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(m.errLine()).isEqualTo("coffer: unmounted " + m.mountPoint() + "; the vault is locked");
        assertThat(MountTable.isMounted(m.mountPoint())).isFalse();
        assertThat(Files.exists(m.mountPoint())).as("the folder coffer created is gone").isFalse();
        assertThat(cat("note.txt")).isEqualTo("written through the mount");
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD) // a missing line blocks the read
    void aConflictCopyOfAFileReplacedUnderAProgramIsPrintedWithItsPaths() throws Exception {
        Mounted m = mount();
        assertThat(m.errLine()).startsWith("coffer: mounted");
        // a program writes a file through the mount while a sync client deletes its ciphertext
        dev.coffer.app.vaults.TestVaults.orphanedWriter(m.mountPoint(), vault, "/docs/report.txt", "written here").close();
        assertThat(m.errLine()).as("where the writes are, core's nameless WARN for it kept off the terminal").isEqualTo(
                "coffer: WARN \"/docs/report.txt\" was changed here while another device replaced "
                + "or deleted it; what was written here is kept as \"/docs/report.txt (Conflict 1)\"");
        assertThat(Files.readString(m.mountPoint().resolve("docs/report.txt (Conflict 1)"))).isEqualTo("written here");
        signal(m.process(), "TERM");
        assertThat(m.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(m.err().lines().toList()).as("one line for the copy, then only the unmount's")
                .containsExactly("coffer: unmounted " + m.mountPoint() + "; the vault is locked");
    }

    @Test
    void sigintDoesTheSame() throws Exception {
        SigintDisposition.assertChildrenCanReceiveSigint();
        Mounted m = mount();
        Files.writeString(m.mountPoint().resolve("x"), "x");
        signal(m.process(), "INT");
        assertThat(m.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(m.process().exitValue()).isEqualTo(130);
        assertThat(MountTable.isMounted(m.mountPoint())).isFalse();
        assertThat(cat("x")).isEqualTo("x");
    }

    @Test
    void aBusyMountIsUnmountedOnceItsFilesAreClosed() throws Exception {
        Mounted m = mount();
        Files.writeString(m.mountPoint().resolve("open.txt"), "open");
        try (FileChannel open = FileChannel.open(m.mountPoint().resolve("open.txt"))) {
            m.errLine();
            signal(m.process(), "TERM");
            assertThat(m.errLine()).contains("is busy").contains("fusermount -u -z " + m.mountPoint()).contains("--force");
            assertThat(m.process().waitFor(2, TimeUnit.SECONDS)).as("still serving").isFalse();
            assertThat(open.size()).isEqualTo(4);
        }
        assertThat(m.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(MountTable.isMounted(m.mountPoint())).isFalse();
    }

    @Test
    void forceUnmountsEvenWhenBusy() throws Exception {
        Mounted m = mount("--force");
        Files.writeString(m.mountPoint().resolve("open.txt"), "open");
        FileChannel open = FileChannel.open(m.mountPoint().resolve("open.txt"));
        try {
            signal(m.process(), "TERM");
            assertThat(m.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(MountTable.isMounted(m.mountPoint())).isFalse();
        } finally {
            try {
                open.close();
            } catch (IOException e) {
                // the server is gone: the kernel reports that on close, and that is fine here
            }
        }
        assertThat(cat("open.txt")).isEqualTo("open");
    }

    @Test
    void anUnmountFromElsewhereEndsTheCommandCleanly() throws Exception {
        Mounted m = mount();
        Process u = new ProcessBuilder("fusermount", "-u", m.mountPoint().toString()).start();
        assertThat(u.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(m.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(m.process().exitValue()).isZero();
    }

    @Test
    void aStaleMountOfAKilledCofferIsClearedOnTheNextMount() throws Exception {
        Mounted first = mount();
        Files.writeString(first.mountPoint().resolve("kept.txt"), "kept");
        first.process().destroyForcibly(); // SIGKILL
        assertThat(first.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(MountTable.isMounted(first.mountPoint())).isTrue();
        try {
            Files.list(first.mountPoint()).close();
            throw new AssertionError("expected a stale mount");
        } catch (FileSystemException e) {
            assertThat(e.getMessage()).contains("Transport endpoint is not connected");
        }
        Mounted second = mount();
        assertThat(second.errLine()).contains("stale");
        assertThat(Files.readString(second.mountPoint().resolve("kept.txt"))).isEqualTo("kept");
        signal(second.process(), "TERM");
        assertThat(second.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void readOnlyRefusesWrites() throws Exception {
        Mounted m = mount("--read-only");
        try {
            Files.writeString(m.mountPoint().resolve("new"), "x");
            throw new AssertionError("a write succeeded on a read-only mount");
        } catch (FileSystemException e) {
            assertThat(e.getMessage()).contains("Read-only file system");
        }
        signal(m.process(), "TERM");
        assertThat(m.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aSecondMountOfTheSameVaultIsRefused() throws Exception {
        Mounted m = mount();
        Path other = tmp.resolve("mnt2");
        mountPoints.add(other);
        Process second = process(Map.of(), "mount", vault.toString(), other.toString());
        String err = new String(second.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(second.exitValue()).isNotZero();
        assertThat(err).contains("already open in another Coffer");
        assertThat(MountTable.isMounted(other)).isFalse();
        assertThat(Files.exists(other)).as("nothing left behind").isFalse();
        signal(m.process(), "TERM");
        assertThat(m.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void badMountPointsAreUsageErrors() throws Exception {
        Path full = Files.createDirectories(tmp.resolve("full"));
        Files.writeString(full.resolve("mine"), "mine");
        Process p = process(Map.of(), "mount", vault.toString(), full.toString());
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(err).startsWith("coffer: the mount point is not empty: " + full);
        Process inside = process(Map.of(), "mount", vault.toString(), vault.resolve("mnt").toString());
        String insideErr = new String(inside.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(inside.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(inside.exitValue()).isEqualTo(2);
        assertThat(insideErr).contains("must not be inside the vault folder");
        assertThat(Files.exists(vault.resolve("mnt"))).isFalse();
        Path link = Files.createSymbolicLink(tmp.resolve("vault-link"), vault); // the same folder through a link
        Process linked = process(Map.of(), "mount", vault.toString(), link.resolve("mnt").toString());
        String linkedErr = new String(linked.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(linked.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(linked.exitValue()).isEqualTo(2);
        assertThat(linkedErr).contains("must not be inside the vault folder");
        assertThat(Files.exists(vault.resolve("mnt"))).isFalse();
    }

    @Test
    void missingFuseIsAClearMessageNotAStackTrace() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin")); // what the launcher needs, but no fusermount
        for (String tool : List.of("readlink", "dirname")) {
            Files.createSymbolicLink(bin.resolve(tool), Path.of("/usr/bin", tool));
        }
        Map<String, String> env = new HashMap<>();
        env.put("PATH", bin.toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        Process p = process(env, "mount", vault.toString(), tmp.resolve("mnt").toString());
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(err).startsWith("coffer: FUSE is not available").contains("fuse3").contains("coffer serve")
                .doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(Files.exists(tmp.resolve("mnt"))).isFalse();
    }
}
