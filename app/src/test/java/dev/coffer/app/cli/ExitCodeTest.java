package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The documented exit codes as users meet them: wrong passphrase 3, not a vault 4, bad usage 2. */
class ExitCodeTest {
    static final String PASSPHRASE = "correct horse battery";

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"info", "ls", "cat /x", "export DEST", "import SRC", "recovery-key", "passwd"})
    void aWrongPassphraseExits3AndSaysSo(String command) throws IOException {
        Path vault = Cli.createVault(tmp.resolve("vault"), PASSPHRASE);
        Files.createDirectory(tmp.resolve("src"));
        String[] words = command.replace("DEST", tmp.resolve("dest").toString()).replace("SRC", tmp.resolve("src").toString())
                .split(" ");
        String[] args = new String[words.length + 1];
        args[0] = words[0];
        args[1] = vault.toString();
        System.arraycopy(words, 1, args, 2, words.length - 1);
        Cli.Result r = Cli.withEnv(PassphraseSource.ENV, "correct horse battery!",
                PassphraseSource.NEW_ENV, "another passphrase").run(args);
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.WRONG_PASSPHRASE);
        assertThat(r.err()).isEqualTo("coffer: wrong passphrase\n");
        assertThat(r.out()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"info", "ls", "recovery-key", "passwd", "recover", "export"})
    void aFolderThatIsNotAVaultExits4BeforeAnyPrompt(String command) throws IOException {
        Path plain = Files.createDirectory(tmp.resolve("plain"));
        Files.writeString(plain.resolve("notes.txt"), "not a vault");
        String[] args = command.equals("export") ? new String[] {command, plain.toString(), tmp.resolve("d").toString()}
                : new String[] {command, plain.toString()};
        Cli.Result r = Cli.withEnv().typing().run(args);
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.VAULT_DAMAGED);
        assertThat(r.err()).contains("not a vault").contains(plain.toString());
    }

    @Test
    void aMissingFolderIsNotAVault() {
        Cli.Result r = Cli.withPassphrase(PASSPHRASE).run("info", tmp.resolve("missing").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.VAULT_DAMAGED);
    }

    @Test
    void aDamagedConfigurationExits4WithCoresMessage() throws IOException {
        Path vault = Cli.createVault(tmp.resolve("vault"), PASSPHRASE);
        Files.writeString(vault.resolve("vault.coffer"), "garbage");
        Cli.Result r = Cli.withPassphrase(PASSPHRASE).run("info", vault.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.VAULT_DAMAGED);
        assertThat(r.err()).startsWith("coffer: not a usable vault: vault.coffer").doesNotContain("\tat ");
    }

    @Test
    void debugAddsTheStackTrace() {
        Path vault = Cli.createVault(tmp.resolve("vault"), PASSPHRASE);
        Cli.Result r = Cli.withPassphrase("wrong passphrase!").run("info", "--debug", vault.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.WRONG_PASSPHRASE);
        assertThat(r.err()).startsWith("coffer: wrong passphrase\n").contains("InvalidPassphraseException").contains("\tat ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "frobnicate", "info", "ls --bogus V", "create V --combo AES_ECB", "cat V",
        "create V --passphrase secret", "export V", "create V --scrypt-n many"})
    void badUsageExits2(String line) {
        String[] args = line.isEmpty() ? new String[0] : line.replace("V", tmp.resolve("v").toString()).split(" ");
        Cli.Result r = Cli.withPassphrase(PASSPHRASE).run(args);
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).isNotEmpty();
        assertThat(r.out()).isEmpty();
        assertThat(tmp.resolve("v")).doesNotExist();
    }

    @Test
    void withoutASubcommandItPrintsTheUsageAndExits2() {
        Cli.Result r = Cli.withEnv().run();
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("Usage: coffer").contains("create").contains("export").contains("Exit codes:");
    }
}
