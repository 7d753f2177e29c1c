package dev.coffer.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through the real {@code target/coffer} launcher (written by prepare-package; run by
 * failsafe after package): the script finds its jars, the JVM starts, exit codes and streams reach
 * the caller. Uses a symlink to the launcher to prove it resolves its own folder.
 */
class LauncherIT {
    static final String PASSPHRASE = "correct horse battery";

    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {}

    @Test
    void theLauncherRunsTheCommandLine() throws Exception {
        Path launcher = Path.of(System.getProperty("coffer.launcher", "target/coffer"));
        assertThat(launcher).isRegularFile().isExecutable();
        Path linked = Files.createSymbolicLink(tmp.resolve("coffer"), launcher.toAbsolutePath());

        Run version = run(linked, Map.of(), "--version");
        assertThat(version.code()).as(version.toString()).isZero();
        assertThat(version.out()).startsWith("coffer ");
        // JAVA_HOME chooses the Java, and --version names the one that runs.
        String javaHome = System.getProperty("java.home");
        Run named = run(linked, Map.of("JAVA_HOME", javaHome), "--version");
        assertThat(named.out()).as(named.toString())
                .endsWith("\nJava " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ", "
                        + javaHome + ")\n");

        Path vault = tmp.resolve("vault");
        Path source = Files.createDirectories(tmp.resolve("source/sub"));
        Files.writeString(source.resolve("Grüße.txt"), "through the launcher\n");
        Map<String, String> env = Map.of("COFFER_PASSPHRASE", PASSPHRASE);
        assertThat(run(linked, env, "create", vault.toString(), "--scrypt-n", "16384").code()).isZero();
        assertThat(run(linked, env, "import", vault.toString(), tmp.resolve("source").toString()).code()).isZero();
        Run ls = run(linked, env, "ls", vault.toString(), "/sub");
        assertThat(ls.out()).isEqualTo("f           21  Grüße.txt\n");
        assertThat(run(linked, env, "cat", vault.toString(), "sub/Grüße.txt").out()).isEqualTo("through the launcher\n");

        Run wrong = run(linked, Map.of("COFFER_PASSPHRASE", "not the passphrase"), "info", vault.toString());
        assertThat(wrong.code()).isEqualTo(3);
        assertThat(wrong.err()).isEqualTo("coffer: wrong passphrase\n");

        Run usage = run(linked, Map.of());
        assertThat(usage.code()).isEqualTo(2);
        assertThat(usage.err()).contains("Usage: coffer");
    }

    private static Run run(Path launcher, Map<String, String> env, String... args) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(concat(launcher.toString(), args));
        pb.environment().remove("COFFER_PASSPHRASE");
        // A terminal without a desktop: with a display, no arguments would start the GUI instead of the usage.
        pb.environment().remove("DISPLAY");
        pb.environment().remove("WAYLAND_DISPLAY");
        pb.environment().putAll(env);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        // Small outputs only: reading one stream after the other cannot dead-lock here.
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out, err);
    }

    private static List<String> concat(String first, String... rest) {
        List<String> all = new java.util.ArrayList<>(List.of(first));
        all.addAll(List.of(rest));
        return all;
    }
}
