package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code create} (options, folder rules, passphrase sources and length) and {@code info}. */
class CreateInfoTest {
    static final String PASSPHRASE = "correct horse battery";

    @TempDir
    Path tmp;

    @Test
    void createThenInfoShowsTheVault() {
        Path vault = tmp.resolve("vault");
        Cli.Result created = Cli.withPassphrase(PASSPHRASE).run("create", vault.toString(), "--scrypt-n", Cli.FAST_SCRYPT);
        assertThat(created.code()).as(created.toString()).isZero();
        assertThat(created.out()).contains("Created vault").contains("recovery-key");

        Cli.Result info = Cli.withPassphrase(PASSPHRASE).run("info", vault.toString());
        assertThat(info.code()).as(info.toString()).isZero();
        assertThat(info.out())
                .contains("vault folder:  " + vault.toAbsolutePath())
                .containsPattern("jti: +[0-9a-f]{8}-[0-9a-f]{4}-")
                .contains("content mode:  SIV_XTSHMAC (authenticated)")
                .contains("threshold:     220")
                .doesNotContain("warning");
        assertThat(info.err()).isEmpty();
    }

    @Test
    void theComboOptionChoosesTheContentMode() {
        Path vault = Cli.createVault(tmp.resolve("xts"), PASSPHRASE, "--combo", "SIV_XTS");
        Cli.Result info = Cli.withPassphrase(PASSPHRASE).run("info", vault.toString());
        assertThat(info.out()).contains("content mode:  SIV_XTS (length-preserving, not authenticated)");
    }

    @Test
    void anEmptyFolderIsAcceptedAndANonEmptyOneRefused() throws IOException {
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        Cli.createVault(empty, PASSPHRASE);
        Path full = Files.createDirectory(tmp.resolve("full"));
        Files.writeString(full.resolve("photo.jpg"), "x");
        Cli.Result r = Cli.withPassphrase(PASSPHRASE).run("create", full.toString(), "--scrypt-n", Cli.FAST_SCRYPT);
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("not empty");
        assertThat(Files.exists(full.resolve("vault.coffer"))).isFalse();
    }

    @Test
    void aShortPassphraseIsRefusedWithAClearMessage() {
        Cli.Result r = Cli.withPassphrase("1234567").run("create", tmp.resolve("v").toString(), "--scrypt-n", Cli.FAST_SCRYPT);
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("too short").contains("at least 8 characters");
        assertThat(Files.exists(tmp.resolve("v"))).isFalse();
    }

    @Test
    void anInvalidScryptCostIsAUsageError() {
        Cli.Result r = Cli.withPassphrase(PASSPHRASE).run("create", tmp.resolve("v").toString(), "--scrypt-n", "1000");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("power of two");
    }

    @Test
    void thePassphraseFileGivesItsFirstLineWithoutTheLineBreak() throws IOException {
        Path file = Cli.file(tmp, "pass.txt", PASSPHRASE + "\r\nsecond line is ignored\n");
        Path vault = tmp.resolve("v");
        Cli.Result created = Cli.withEnv().run("create", vault.toString(), "--scrypt-n", Cli.FAST_SCRYPT,
                "--passphrase-file", file.toString());
        assertThat(created.code()).as(created.toString()).isZero();
        assertThat(Cli.withPassphrase(PASSPHRASE).run("info", vault.toString()).code()).isZero();
    }

    @Test
    void theFileWinsOverTheEnvironment() throws IOException {
        Path vault = Cli.createVault(tmp.resolve("v"), PASSPHRASE);
        Path file = Cli.file(tmp, "pass.txt", PASSPHRASE + "\n");
        Cli.Result r = Cli.withPassphrase("not the passphrase").run("info", vault.toString(), "--passphrase-file", file.toString());
        assertThat(r.code()).as(r.toString()).isZero();
    }

    @Test
    void aPassphraseFileOthersCanReadIsUsedWithAWarning() throws IOException {
        Path vault = Cli.createVault(tmp.resolve("v"), PASSPHRASE);
        Path file = Cli.file(tmp, "pass.txt", PASSPHRASE + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        Cli.Result r = Cli.withEnv().run("info", vault.toString(), "--passphrase-file", file.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.err()).contains("warning").contains(file.toString()).contains("0644").contains("chmod 600")
                .doesNotContain(PASSPHRASE);
    }

    @Test
    void aPassphraseFileOnlyItsOwnerCanReadGivesNoWarning() throws IOException {
        Path vault = Cli.createVault(tmp.resolve("v"), PASSPHRASE);
        Path file = Cli.file(tmp, "pass.txt", PASSPHRASE + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Cli.Result r = Cli.withEnv().run("info", vault.toString(), "--passphrase-file", file.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.err()).isEmpty();
    }

    @Test
    void aMissingPassphraseFileIsAUsageError() {
        Cli.Result r = Cli.withPassphrase(PASSPHRASE).run("create", tmp.resolve("v").toString(),
                "--passphrase-file", tmp.resolve("nope.txt").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("not found").contains("nope.txt");
    }

    @Test
    void onATerminalTheNewPassphraseIsAskedTwice() {
        Path vault = tmp.resolve("v");
        Cli.Result r = Cli.withEnv().typing(PASSPHRASE, PASSPHRASE).run("create", vault.toString(), "--scrypt-n", Cli.FAST_SCRYPT);
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(Cli.withEnv().typing(PASSPHRASE).run("info", vault.toString()).code()).isZero();
    }

    @Test
    void twoDifferentEntriesOnTheTerminalAreRefused() {
        Cli.Result r = Cli.withEnv().typing(PASSPHRASE, PASSPHRASE + "!").run("create", tmp.resolve("v").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("do not match");
    }

    @Test
    void withoutAnySourceItSaysWhereAPassphraseCanComeFrom() {
        Cli.Result r = Cli.withEnv().run("create", tmp.resolve("v").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--passphrase-file").contains("COFFER_PASSPHRASE").contains("terminal");
    }
}
