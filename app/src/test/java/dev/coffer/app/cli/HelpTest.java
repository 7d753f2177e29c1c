package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** --help on every command (with the exit codes), --version. */
class HelpTest {
    @ParameterizedTest
    @ValueSource(strings = {"", "create", "info", "passwd", "recovery-key", "recover", "import", "export", "ls", "cat", "mount"})
    void everyCommandHasHelpWithTheExitCodes(String command) {
        Cli.Result r = command.isEmpty() ? Cli.withEnv().run("--help") : Cli.withEnv().run(command, "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Usage: coffer " + command).contains("Exit codes:")
                .contains("3   wrong passphrase").contains("4   not a vault");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void passphraseSourcesAreNamedInTheHelp() {
        assertThat(Cli.withEnv().run("info", "--help").out())
                .contains("--passphrase-file").contains("COFFER_PASSPHRASE").contains("signature");
        assertThat(Cli.withEnv().run("passwd", "--help").out())
                .contains("--new-passphrase-file").contains("COFFER_NEW_PASSPHRASE");
        assertThat(Cli.withEnv().run("recover", "--help").out()).contains("--words-file").contains("COFFER_RECOVERY_WORDS");
    }

    @Test
    void aPercentSignInTheJavaFolderIsPrintedAsItIs() {
        // picocli formats version lines: an unescaped "%2B" would fail ("Could not format") instead.
        assertThat(String.format(VersionProvider.javaLine("21.0.9", "Vendor", "/opt/jdk%2B21")))
                .isEqualTo("Java 21.0.9 (Vendor, /opt/jdk%2B21)");
    }

    @Test
    void versionPrintsTheBuildVersionAndTheJavaThatRunsIt() {
        Cli.Result r = Cli.withEnv().run("--version");
        assertThat(r.code()).isZero();
        assertThat(r.out()).matches("coffer \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\nJava .+\\n");
        assertThat(r.out()).endsWith("Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor")
                + ", " + System.getProperty("java.home") + ")\n");
    }
}
