package dev.coffer.core.vault;

import static dev.coffer.core.vault.VaultRoundTripTest.FAST;
import static dev.coffer.core.vault.VaultRoundTripTest.pw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A passphrase changed on another device, with the sync keeping both masterkey files: the new
 * passphrase opens only the conflict copy. Unlock says so (naming the copy), instead of "wrong
 * passphrase", and changes nothing.
 */
class MasterkeyConflictUnlockTest {
    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(strings = {"masterkey (1).coffer", "masterkey (conflicted copy 2026-01-02).coffer",
            "masterkey.sync-conflict-20260102-101112-ABCDEFG.coffer"})
    void aPassphraseThatOpensOnlyAConflictCopyIsNamedAsSuchAndNothingIsChanged(String copyName) throws IOException {
        Path vault = temp.resolve("v");
        VaultAccess.create(vault, pw("old one"), FAST).close();
        // The other device's change, then the sync: its file became the conflict copy, ours stayed.
        changedOnAnotherDevice(vault, "masterkey.coffer", copyName);
        Map<String, String> before = TreeSnapshot.of(vault);

        assertThatThrownBy(() -> VaultAccess.unlock(vault, pw("new one")))
                .isInstanceOf(PassphraseOpensConflictCopyException.class)
                .isNotInstanceOf(InvalidPassphraseException.class)
                .hasMessageContaining(copyName)
                .hasMessageContaining("masterkey.coffer")
                .hasMessageNotContaining("new one")
                .satisfies(e -> assertThat(((PassphraseOpensConflictCopyException) e).copyName()).isEqualTo(copyName));
        assertThat(TreeSnapshot.of(vault)).isEqualTo(before);

        assertThatThrownBy(() -> VaultAccess.unlock(vault, pw("neither")))
                .isExactlyInstanceOf(InvalidPassphraseException.class);
        try (UnlockedVault v = VaultAccess.unlock(vault, pw("old one"))) {
            assertThat(v.warnings()).singleElement().asString().contains(copyName);
        }
    }

    @Test
    void aConflictCopyOfAMasterkeyFileOfAnotherNameIsProbedToo() throws IOException {
        Path vault = temp.resolve("v");
        byte[] configKey;
        try (UnlockedVault v = VaultAccess.create(vault, pw("old one"), FAST)) {
            configKey = v.masterKey().derive(VaultConfigJwt.CONFIG_KEY_INFO, VaultConfigJwt.CONFIG_KEY_LENGTH);
        }
        // vault.coffer names keys.coffer (spec 2.2 allows any plain file name), signed anew.
        String[] token = Files.readString(vault.resolve("vault.coffer"), StandardCharsets.US_ASCII).trim().split("\\.");
        byte[] header = "{\"alg\":\"HS256\",\"typ\":\"JWT\",\"kid\":\"masterkeyfile:keys.coffer\"}".getBytes(StandardCharsets.US_ASCII);
        byte[] payload = Base64.getUrlDecoder().decode(token[1]);
        Files.write(vault.resolve("vault.coffer"), JwsCompact.signHs256(header, payload, configKey).compact().getBytes(StandardCharsets.US_ASCII));
        Files.move(vault.resolve("masterkey.coffer"), vault.resolve("keys.coffer"));
        VaultAccess.unlock(vault, pw("old one")).close();
        changedOnAnotherDevice(vault, "keys.coffer", "keys (1).coffer");

        assertThatThrownBy(() -> VaultAccess.unlock(vault, pw("new one")))
                .isInstanceOf(PassphraseOpensConflictCopyException.class)
                .satisfies(e -> assertThat(((PassphraseOpensConflictCopyException) e).copyName()).isEqualTo("keys (1).coffer"));
        assertThatThrownBy(() -> VaultAccess.unlock(vault, pw("neither")))
                .isExactlyInstanceOf(InvalidPassphraseException.class);
    }

    /**
     * Another device's change of the passphrase from "old one" to "new one", synced back as the
     * conflict copy {@code copyName} of the masterkey file {@code name}, which stays as it was: the
     * same master key wrapped under the new passphrase. Written here at the old file's N = 2^14, where
     * a real change raises N to 2^17 (spec 2.1): each unlock that tries the copy would pay eight times
     * the scrypt work, and what the unlock decides does not depend on N.
     */
    private static void changedOnAnotherDevice(Path vault, String name, String copyName) throws IOException {
        byte[] newPassphrase = Passphrases.toNfcUtf8(pw("new one"));
        try (UnlockedVault v = new VaultOperations(Kdf.SCRYPT, new SecureRandom()).unlock(vault, Passphrases.toNfcUtf8(pw("old one")))) {
            MasterkeyFile old = MasterkeyFile.parse(Files.readAllBytes(vault.resolve(name)), name);
            assertThat(old.params()).isEqualTo(new ScryptParams(1 << 14, 8, 1));
            byte[] copy = MasterkeyFile.wrap(v.masterKey(), newPassphrase, old.params(), new SecureRandom(), Kdf.SCRYPT).toBytes();
            Files.write(vault.resolve(copyName), copy);
        }
    }

    @Test
    void onlyDecoratedNamesCountAsCopiesOfAMasterkeyFile() {
        assertThat(MasterkeyCopyProbe.isDecoratedCopy("keys (1).coffer", "keys.coffer")).isTrue();
        assertThat(MasterkeyCopyProbe.isDecoratedCopy("keys.sync-conflict-20260102-101112-ABCDEFG.coffer", "keys.coffer")).isTrue();
        assertThat(MasterkeyCopyProbe.isDecoratedCopy("keys-DESKTOP-4F2G.coffer", "keys.coffer")).isTrue();
        assertThat(MasterkeyCopyProbe.isDecoratedCopy("keysafe.coffer", "keys.coffer")).isFalse();
        assertThat(MasterkeyCopyProbe.isDecoratedCopy("keys.coffer.bkup", "keys.coffer")).isFalse();
        assertThat(MasterkeyCopyProbe.isDecoratedCopy("keys.coffer", "keys.coffer")).isFalse();
        assertThat(MasterkeyCopyProbe.isDecoratedCopy("mk (1)", "mk")).isTrue();
    }

    @Test
    void aCopyOfAnotherVaultsMasterkeyThatOpensIsStillAWrongPassphraseHere() throws IOException {
        Path vault = temp.resolve("v");
        Path other = temp.resolve("other");
        VaultAccess.create(vault, pw("mine"), FAST).close();
        VaultAccess.create(other, pw("theirs"), FAST).close();
        Files.copy(other.resolve("masterkey.coffer"), vault.resolve("masterkey (1).coffer"));

        assertThatThrownBy(() -> VaultAccess.unlock(vault, pw("theirs")))
                .isExactlyInstanceOf(InvalidPassphraseException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"garbage", "truncated", "empty", "oversized"})
    void theRecoveryKeyWritesAFreshMasterkeyFileOverADamagedOne(String damage) throws IOException {
        Path vault = temp.resolve("v");
        VaultAccess.create(vault, pw("forgotten"), FAST).close();
        List<String> words = VaultAccess.recoveryKey(vault, pw("forgotten"));
        Path masterkey = vault.resolve("masterkey.coffer");
        byte[] good = Files.readAllBytes(masterkey);
        switch (damage) {
            case "garbage" -> Files.writeString(masterkey, "{\"version\": 1, \"scryptSalt\": ");
            case "truncated" -> Files.write(masterkey, java.util.Arrays.copyOf(good, good.length / 2));
            case "empty" -> Files.write(masterkey, new byte[0]);
            default -> Files.write(masterkey, new byte[200_000]);
        }
        assertThatThrownBy(() -> VaultAccess.unlock(vault, pw("forgotten"))).isInstanceOf(VaultFormatException.class);

        VaultAccess.resetPassphrase(vault, String.join(" ", words), pw("fresh"));

        try (UnlockedVault v = VaultAccess.unlock(vault, pw("fresh"))) {
            assertThat(v.warnings()).isEmpty();
        }
        assertThat(VaultAccess.recoveryKey(vault, pw("fresh"))).isEqualTo(words);
        try (var files = Files.list(vault)) {
            List<String> names = files.map(p -> p.getFileName().toString()).toList();
            assertThat(names).noneMatch(n -> n.startsWith(".coffer-tmp-"));
            assertThat(names).anyMatch(n -> n.startsWith("masterkey.coffer.") && n.endsWith(".bkup")); // the damaged file kept
        }
    }
}
