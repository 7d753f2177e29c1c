package dev.coffer.app.vaults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Change passphrase, show and use the recovery key, through the app's layer. */
class VaultKeysTest {
    @TempDir
    Path tmp;

    @Test
    void changePassphraseThenOnlyTheNewOneUnlocks() throws Exception {
        TestVaults t = new TestVaults(tmp);
        ManagedVault v = t.create("Taxes").vault();
        char[] oldP = TestVaults.PASSPHRASE.toCharArray();
        char[] newP = "a brand new passphrase".toCharArray();
        VaultKeys.changePassphrase(v, oldP, newP);
        assertThat(oldP).containsOnly('\0');
        assertThat(newP).containsOnly('\0');
        assertThatThrownBy(() -> t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray()))
                .isInstanceOfSatisfying(VaultException.class, e -> assertThat(e.problem()).isEqualTo(Problem.WRONG_PASSPHRASE));
        t.service.unlock(v, "a brand new passphrase".toCharArray());
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        t.service.lock(v, false);
    }

    @Test
    void changeWithAWrongCurrentPassphraseIsSaidSo() throws Exception {
        TestVaults t = new TestVaults(tmp);
        ManagedVault v = t.create("Taxes").vault();
        assertThatThrownBy(() -> VaultKeys.changePassphrase(v, "wrong one!".toCharArray(), "a brand new one".toCharArray()))
                .isInstanceOfSatisfying(VaultException.class, e -> assertThat(e.problem()).isEqualTo(Problem.WRONG_PASSPHRASE));
    }

    @Test
    void theRecoveryKeyShownIsTheOneFromCreationAndResetsThePassphrase() throws Exception {
        TestVaults t = new TestVaults(tmp);
        CreatedVault c = t.create("Taxes");
        List<String> shown = VaultKeys.recoveryKey(c.vault(), TestVaults.PASSPHRASE.toCharArray());
        assertThat(shown).isEqualTo(c.recoveryWords());
        VaultKeys.resetPassphrase(c.vault(), String.join(" ", shown), "forgot the old one".toCharArray());
        t.service.unlock(c.vault(), "forgot the old one".toCharArray());
        assertThat(c.vault().state()).isEqualTo(VaultState.UNLOCKED);
        t.service.lock(c.vault(), false);
    }

    @Test
    void aWrongRecoveryKeyIsSaidSoWithoutNamingAWord() throws Exception {
        TestVaults t = new TestVaults(tmp);
        CreatedVault c = t.create("Taxes");
        List<String> words = new ArrayList<>(c.recoveryWords());
        String swapped = words.get(0);
        words.set(0, words.get(1));
        words.set(1, swapped);
        char[] p = "forgot the old one".toCharArray();
        assertThatThrownBy(() -> VaultKeys.resetPassphrase(c.vault(), String.join(" ", words), p))
                .isInstanceOfSatisfying(VaultException.class, e -> {
                    assertThat(e.problem()).isEqualTo(Problem.WRONG_RECOVERY_KEY);
                    // The whole message, which names no word (a check for the two words themselves failed
                    // whenever one of them was "word", "wrong", "out" or "order", which the text says).
                    assertThat(e.getMessage()).isEqualTo(
                            "WRONG_RECOVERY_KEY: recovery key checksum does not match: a word is wrong or out of order");
                });
        assertThat(p).containsOnly('\0');
    }
}
