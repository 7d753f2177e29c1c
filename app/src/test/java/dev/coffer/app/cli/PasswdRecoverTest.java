package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** passwd, recovery-key and recover: the old passphrase stops working, the new one works. */
class PasswdRecoverTest {
    static final String OLD = "correct horse battery";
    static final String NEW = "tr0ub4dor & 3, but longer";

    @TempDir
    Path tmp;

    @Test
    void passwdReplacesThePassphrase() throws IOException {
        Path vault = Cli.createVault(tmp.resolve("vault"), OLD);
        Path newFile = Cli.file(tmp, "new.txt", NEW + "\n");
        Cli.Result r = Cli.withPassphrase(OLD).run("passwd", vault.toString(), "--new-passphrase-file", newFile.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertOnlyThisPassphraseOpens(vault, NEW, OLD);
    }

    @Test
    void passwdTakesTheNewPassphraseFromTheEnvironmentOrTheTerminal() {
        Path vault = Cli.createVault(tmp.resolve("vault"), OLD);
        Cli.Result env = Cli.withEnv(PassphraseSource.ENV, OLD, PassphraseSource.NEW_ENV, NEW).run("passwd", vault.toString());
        assertThat(env.code()).as(env.toString()).isZero();
        Cli.Result tty = Cli.withEnv().typing(NEW, OLD, OLD).run("passwd", vault.toString());
        assertThat(tty.code()).as(tty.toString()).isZero();
        assertOnlyThisPassphraseOpens(vault, OLD, NEW);
    }

    @Test
    void passwdRefusesAShortNewPassphraseAndKeepsTheOldOne() {
        Path vault = Cli.createVault(tmp.resolve("vault"), OLD);
        Cli.Result r = Cli.withEnv(PassphraseSource.ENV, OLD, PassphraseSource.NEW_ENV, "short").run("passwd", vault.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("too short");
        assertOnlyThisPassphraseOpens(vault, OLD, "short");
    }

    @Test
    void recoveryKeyPrints48WordsThatRecoverSetsANewPassphraseWith() throws IOException {
        Path vault = Cli.createVault(tmp.resolve("vault"), OLD);
        Cli.Result key = Cli.withPassphrase(OLD).run("recovery-key", vault.toString());
        assertThat(key.code()).as(key.toString()).isZero();
        List<String> lines = key.out().lines().toList();
        assertThat(lines).hasSize(4).allSatisfy(l -> assertThat(l.split(" ")).hasSize(12).allMatch(w -> w.matches("[a-z]+")));
        assertThat(key.err()).contains("anyone with these words");

        Path words = Cli.file(tmp, "words.txt", key.out());
        Cli.Result recovered = Cli.withEnv(PassphraseSource.NEW_ENV, NEW).run("recover", vault.toString(),
                "--words-file", words.toString());
        assertThat(recovered.code()).as(recovered.toString()).isZero();
        assertOnlyThisPassphraseOpens(vault, NEW, OLD);

        Cli.Result again = Cli.withEnv(RecoveryWords.ENV, key.out().replace('\n', ' '), PassphraseSource.NEW_ENV, OLD)
                .run("recover", vault.toString());
        assertThat(again.code()).as(again.toString()).isZero();
        assertOnlyThisPassphraseOpens(vault, OLD, NEW);
    }

    @Test
    void wrongRecoveryWordsExit3AndChangeNothing() {
        Path vault = Cli.createVault(tmp.resolve("vault"), OLD);
        String[] words = Cli.withPassphrase(OLD).run("recovery-key", vault.toString()).out().split("\\s+");
        String swapped = words[1] + " " + words[0] + " " + String.join(" ", List.of(words).subList(2, words.length));
        Cli.Result r = Cli.withEnv(RecoveryWords.ENV, swapped, PassphraseSource.NEW_ENV, NEW).run("recover", vault.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.WRONG_PASSPHRASE);
        assertThat(r.err()).startsWith("coffer: invalid recovery key: ").doesNotContain(words[0]);
        assertOnlyThisPassphraseOpens(vault, OLD, NEW);
    }

    @Test
    void theWordsOfTheIndependentSampleVaultRecoverIt() throws IOException {
        Path vault = SampleVaults.copy("sample-vault-xtshmac", tmp);
        String words = "cigar remember drive orient fatal filter beyond gold knee fresh stairs twenty certain scissors two "
                + "marriage razor citizen movie avoid cinnamon scissors such copy fade chaos bike tray slide secret sweet "
                + "problem jazz copy use arrow because movie trick one under success sibling cube alcohol arch library erupt";
        Cli.Result r = Cli.withEnv(RecoveryWords.ENV, words, PassphraseSource.NEW_ENV, NEW).run("recover", vault.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        Cli.Result info = Cli.withPassphrase(NEW).run("info", vault.toString());
        assertThat(info.out()).contains("688d4a82-8b91-4fc8-b87d-95bde3d8885a");
    }

    private static void assertOnlyThisPassphraseOpens(Path vault, String works, String fails) {
        Cli.Result good = Cli.withPassphrase(works).run("info", vault.toString());
        assertThat(good.code()).as(good.toString()).isZero();
        Cli.Result bad = Cli.withPassphrase(fails).run("info", vault.toString());
        assertThat(bad.code()).as(bad.toString()).isEqualTo(ExitCodes.WRONG_PASSPHRASE);
        assertThat(bad.err()).contains("wrong passphrase");
    }
}
