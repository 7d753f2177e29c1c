package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code litmus} WebDAV compliance suites (Debian package {@code litmus}) against a server with
 * a real vault behind it (also one that requires its HTTP Basic credential, which litmus sends), and
 * with a plain folder: each suite must report every test passed, none
 * failed and no warning.
 * A missing litmus binary is a failure.
 */
class LitmusTest {
    private static final Pattern SUMMARY = Pattern.compile("<- summary for `(\\w+)': of (\\d+) tests run: (\\d+) passed, (\\d+) failed");
    private static final Path LITMUS = Path.of("/usr/bin/litmus");

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"basic", "copymove", "props", "locks", "http"})
    void suitePassesOnAVault(String suite) throws Exception {
        try (ServedVault served = new ServedVault(tmp)) {
            runSuite(suite, served.url());
        }
    }

    /** litmus's own Basic authentication (litmus URL USER PASS) against a server that requires the credential. */
    @ParameterizedTest
    @ValueSource(strings = {"basic", "copymove", "props", "locks", "http"})
    void suitePassesOnAVaultThatRequiresTheCredential(String suite) throws Exception {
        try (ServedVault served = new ServedVault(tmp, true)) {
            // the password on litmus's command line is a test's: Coffer itself hands it only to stdin
            runSuite(suite, served.url(), DavCredential.USER, served.password());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"basic", "copymove", "props", "locks", "http"})
    void suitePassesOnAPlainFolder(String suite) throws Exception {
        try (WebDavServer server = WebDavServer.start(Files.createDirectory(tmp.resolve("plain")), 0)) {
            runSuite(suite, server.url());
        }
    }

    private void runSuite(String suite, String... urlAndCredential) throws Exception {
        assertThat(Files.isExecutable(LITMUS)).as("litmus must be installed (scripts/test.sh installs it)").isTrue();
        // "--": a generated password is URL-safe Base64 and may start with '-', which litmus's
        // getopt would take for an option (one run in 64 per suite failed that way).
        List<String> command = new ArrayList<>(List.of(LITMUS.toString(), "--"));
        command.addAll(List.of(urlAndCredential));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("TESTS", suite);
        pb.redirectErrorStream(true);
        pb.directory(tmp.toFile()); // litmus writes debug.log and child.log into its working folder
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        System.out.println(out);
        Matcher m = SUMMARY.matcher(out);
        assertThat(m.find()).as("litmus summary in:\n%s", out).isTrue();
        assertThat(m.group(1)).isEqualTo(suite);
        assertThat(Integer.parseInt(m.group(4))).as("failed tests in:\n%s", out).isZero();
        assertThat(m.group(3)).as("passed tests in:\n%s", out).isEqualTo(m.group(2));
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).as("litmus warnings (each would need an explanation in docs/webdav.md)").doesNotContain("WARNING");
    }
}
