package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code coffer serve} refuses before it serves (serving itself: ServeIT). */
class ServeCommandTest {
    private static final String PASSPHRASE = "correct horse battery";

    @TempDir
    Path tmp;

    @Test
    void helpHasTheExitCodes() {
        Cli.Result r = Cli.withEnv().run("serve", "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Usage: coffer serve").contains("--port").contains("--mount").contains("Exit codes:");
    }

    @Test
    void notAVaultIsExit4BeforeAnyPrompt() throws Exception {
        Path notVault = Files.createDirectories(tmp.resolve("plain"));
        Cli.Result r = Cli.withEnv().typing("never asked").run("serve", notVault.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(4);
        assertThat(r.err()).startsWith("coffer: not a vault");
    }

    @Test
    void aPortInUseIsAUsageErrorWithoutStackTrace() throws Exception {
        Path vault = Cli.createVault(tmp.resolve("vault"), PASSPHRASE);
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Cli.Result r = Cli.withPassphrase(PASSPHRASE).run("serve", vault.toString(), "--port", String.valueOf(taken.getLocalPort()));
            assertThat(r.code()).as(r.toString()).isEqualTo(2);
            assertThat(r.err()).isEqualTo("coffer: port " + taken.getLocalPort() + " is in use on 127.0.0.1: choose another with --port N, "
                    + "or --port 0 for any free port\n");
            assertThat(r.out()).isEmpty();
        }
    }

    @Test
    void aPortOutOfRangeIsAUsageError() throws Exception {
        Path vault = Cli.createVault(tmp.resolve("vault"), PASSPHRASE);
        Cli.Result r = Cli.withPassphrase(PASSPHRASE).run("serve", vault.toString(), "--port", "70000");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--port must be between 0 and 65535");
    }
}
