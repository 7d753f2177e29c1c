package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.crypto.MasterKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The three sample vaults of testdata: unlock, wrong passphrase, recovery words (README section "Recovery keys"). */
class SampleVaultsTest {
    private static final Pattern RECOVERY_ENTRY =
            Pattern.compile("^- `([a-z0-9-]+)` \\(jti `([0-9a-f-]{36})`\\):\\n  `([a-z ]+)`$", Pattern.MULTILINE);

    @TempDir
    Path temp;

    /** name, jti, recovery words, as the README lists them. */
    static Stream<Arguments> samples() throws IOException {
        String readme = Files.readString(TestData.testdata().resolve("README.md"));
        List<Arguments> samples = new ArrayList<>();
        Matcher m = RECOVERY_ENTRY.matcher(readme);
        while (m.find()) {
            samples.add(Arguments.of(m.group(1), m.group(2), m.group(3)));
        }
        return samples.stream();
    }

    @Test
    void theReadmeListsAllThreeSampleVaults() throws IOException {
        assertThat(samples().map(a -> (String) a.get()[0]))
                .containsExactlyInAnyOrder("small-vault-threshold36", "sample-vault-xtshmac", "sample-vault-xts");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void unlocksWithThePassphraseAndGivesTheJti(String name, String jti, String words) throws IOException {
        Path vault = TestData.copyVault(name, temp);
        try (UnlockedVault unlocked = VaultAccess.unlock(vault, TestData.PASSPHRASE.toCharArray())) {
            assertThat(unlocked.config()).isEqualTo(new VaultConfig(1,
                    name.endsWith("-xts") ? CipherCombo.SIV_XTS : CipherCombo.SIV_XTSHMAC,
                    name.equals("small-vault-threshold36") ? 36 : 220, 4096, jti));
            assertThat(unlocked.warnings()).isEmpty();
            assertThat(unlocked.vaultDir()).isEqualTo(vault);
        }
        assertThat(VaultAccess.isVault(vault)).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void anyOtherPassphraseIsWrongPassphrase(String name, String jti, String words) throws IOException {
        Path vault = TestData.copyVault(name, temp);
        for (String wrong : List.of("correct horse battery staple 2", "", "correct horse battery staple 1 ",
                "Correct horse battery staple 1", "\u00e4\u00f6\u00fc")) {
            assertThatThrownBy(() -> VaultAccess.unlock(vault, wrong.toCharArray()))
                    .isExactlyInstanceOf(InvalidPassphraseException.class)
                    .hasMessage("wrong passphrase");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void theRecoveryWordsAreTheVaultsAndRestoreM(String name, String jti, String words) throws IOException {
        Path vault = TestData.copyVault(name, temp);
        assertThat(String.join(" ", VaultAccess.recoveryKey(vault, TestData.PASSPHRASE.toCharArray()))).isEqualTo(words);
        try (UnlockedVault unlocked = VaultAccess.unlock(vault, TestData.PASSPHRASE.toCharArray())) {
            MasterKey restored = RecoveryKey.parse(words, Bip39WordList.english());
            assertThat(restored.sameKeyAs(unlocked.masterKey())).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void resetPassphraseWithTheWordsLetsTheNewPassphraseUnlock(String name, String jti, String words) throws IOException {
        Path vault = TestData.copyVault(name, temp);
        byte[] oldMasterkey = Files.readAllBytes(vault.resolve("masterkey.coffer"));

        VaultAccess.resetPassphrase(vault, words.toUpperCase(Locale.ROOT), "new passphrase \u00c5".toCharArray());

        try (UnlockedVault unlocked = VaultAccess.unlock(vault, "new passphrase A\u030a".toCharArray())) {
            assertThat(unlocked.config().jti()).isEqualTo(jti);
            assertThat(RecoveryKey.parse(words, Bip39WordList.english()).sameKeyAs(unlocked.masterKey())).isTrue();
        }
        assertThatThrownBy(() -> VaultAccess.unlock(vault, TestData.PASSPHRASE.toCharArray()))
                .isExactlyInstanceOf(InvalidPassphraseException.class);
        Path backup = vault.resolve(MasterkeyReplacer.backupName("masterkey.coffer", oldMasterkey));
        assertThat(backup).hasBinaryContent(oldMasterkey);
    }
}
