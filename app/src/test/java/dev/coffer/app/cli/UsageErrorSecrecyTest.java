package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A mistyped command line may hold a secret: usage errors name options, never argument values. */
class UsageErrorSecrecyTest {
    @Test
    void aPassphraseGivenAsAnArgumentIsRefusedWithoutBeingEchoed() {
        Cli.Result r = Cli.withEnv().run("info", "/tmp/some-vault", "--passphrase", "hunter2-secret");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).doesNotContain("hunter2-secret").contains("never given as arguments");
        Cli.Result eq = Cli.withEnv().run("ls", "/tmp/some-vault", "--passphrase=hunter2-secret");
        assertThat(eq.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(eq.err()).doesNotContain("hunter2-secret");
    }

    @Test
    void unknownOptionsAreNamedButStrayValuesAreNot() {
        Cli.Result r = Cli.withEnv().run("ls", "/tmp/some-vault", "/path", "--colour", "extra-value-42");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--colour").doesNotContain("extra-value-42");
    }
}
