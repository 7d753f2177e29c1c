package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.crypto.MasterKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** create, unlock, change and reset the passphrase through {@link VaultAccess} (scrypt N = 2^14 for speed). */
class VaultRoundTripTest {
    static final VaultCreationOptions FAST = new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220);

    @TempDir
    Path temp;

    static char[] pw(String s) {
        return s.toCharArray();
    }

    @Test
    void createWritesBothRootFilesAndUnlockGivesTheSameKeyAndConfig() throws IOException {
        Path vault = temp.resolve("not/yet/there");
        MasterKey created;
        VaultConfig config;
        try (UnlockedVault v = VaultAccess.create(vault, pw("secret"), new VaultCreationOptions(CipherCombo.SIV_XTS, 1 << 14, 100))) {
            created = MasterKey.of(v.masterKey().copyBytes());
            config = v.config();
            assertThat(v.warnings()).isEmpty();
        }
        assertThat(config.format()).isEqualTo(1);
        assertThat(config.cipherCombo()).isEqualTo(CipherCombo.SIV_XTS);
        assertThat(config.shorteningThreshold()).isEqualTo(100);
        assertThat(config.sectorSize()).isEqualTo(4096);
        assertThat(config.jti()).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        assertThat(VaultAccess.isVault(vault)).isTrue();
        try (Stream<Path> files = Files.list(vault)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("masterkey.coffer", "vault.coffer");
        }
        String jwt = Files.readString(vault.resolve("vault.coffer"), StandardCharsets.US_ASCII);
        assertThat(jwt).startsWith("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6Im1hc3RlcmtleWZpbGU6bWFzdGVya2V5LmNvZmZlciJ9.")
                .doesNotContain("\n");
        assertThat(MasterkeyFile.parse(Files.readAllBytes(vault.resolve("masterkey.coffer")), "m").params())
                .isEqualTo(new ScryptParams(1 << 14, 8, 1));

        try (UnlockedVault v = VaultAccess.unlock(vault, pw("secret"))) {
            assertThat(v.masterKey().sameKeyAs(created)).isTrue();
            assertThat(v.config()).isEqualTo(config);
        }
    }

    @Test
    void closeDestroysTheMasterKey() throws IOException {
        UnlockedVault v = VaultAccess.create(temp, pw("secret"), FAST);
        MasterKey key = v.masterKey();
        v.close();
        assertThat(v.isDestroyed()).isTrue();
        assertThat(key.isDestroyed()).isTrue();
        assertThatThrownBy(v::masterKey).isInstanceOf(IllegalStateException.class);
        v.close();
    }

    @Test
    void createRefusesAnExistingVaultAndLeavesItAlone() throws IOException {
        VaultAccess.create(temp, pw("secret"), FAST).close();
        Map<String, String> before = TreeSnapshot.of(temp);
        assertThatThrownBy(() -> VaultAccess.create(temp, pw("other"), FAST)).isInstanceOf(FileAlreadyExistsException.class);
        Files.delete(temp.resolve("vault.coffer"));
        assertThatThrownBy(() -> VaultAccess.create(temp, pw("other"), FAST)).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(TreeSnapshot.of(temp)).containsAllEntriesOf(Map.of("masterkey.coffer", before.get("masterkey.coffer")));
    }

    @Test
    void passphrasesAreComparedInNfc() throws IOException {
        VaultAccess.create(temp, pw("\u00c5ngstr\u00f6m"), FAST).close();
        VaultAccess.unlock(temp, pw("A\u030angstro\u0308m")).close();
    }

    @Test
    void changePassphraseKeepsABackupRewrapsTheSameKeyAndRaisesN() throws IOException {
        MasterKey original;
        try (UnlockedVault v = VaultAccess.create(temp, pw("old"), FAST)) {
            original = MasterKey.of(v.masterKey().copyBytes());
        }
        byte[] oldFile = Files.readAllBytes(temp.resolve("masterkey.coffer"));

        VaultAccess.changePassphrase(temp, pw("old"), pw("new"));

        String backupName = MasterkeyReplacer.backupName("masterkey.coffer", oldFile);
        assertThat(backupName).matches("masterkey\\.coffer\\.[0-9a-f]{8}\\.bkup");
        assertThat(temp.resolve(backupName)).hasBinaryContent(oldFile);
        assertThatThrownBy(() -> VaultAccess.unlock(temp, pw("old"))).isExactlyInstanceOf(InvalidPassphraseException.class);
        try (UnlockedVault v = VaultAccess.unlock(temp, pw("new"))) {
            assertThat(v.masterKey().sameKeyAs(original)).isTrue();
            assertThat(v.warnings()).isEmpty();
        }
        assertThat(MasterkeyFile.parse(Files.readAllBytes(temp.resolve("masterkey.coffer")), "m").params())
                .isEqualTo(new ScryptParams(1 << 17, 8, 1));
        try (Stream<Path> files = Files.list(temp)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("masterkey.coffer", "vault.coffer", backupName);
        }
    }

    @Test
    void changePassphraseWithTheWrongOldPassphraseChangesNothing() throws IOException {
        VaultAccess.create(temp, pw("old"), FAST).close();
        Map<String, String> before = TreeSnapshot.of(temp);
        assertThatThrownBy(() -> VaultAccess.changePassphrase(temp, pw("0ld"), pw("new")))
                .isExactlyInstanceOf(InvalidPassphraseException.class);
        assertThat(TreeSnapshot.of(temp)).isEqualTo(before);
    }

    @Test
    void recoveryWordsResetTheVaultTheyBelongToOnly() throws IOException {
        VaultAccess.create(temp.resolve("a"), pw("a"), FAST).close();
        VaultAccess.create(temp.resolve("b"), pw("b"), FAST).close();
        List<String> wordsA = VaultAccess.recoveryKey(temp.resolve("a"), pw("a"));
        assertThat(wordsA).hasSize(48);

        Map<String, String> before = TreeSnapshot.of(temp.resolve("b"));
        assertThatThrownBy(() -> VaultAccess.resetPassphrase(temp.resolve("b"), String.join(" ", wordsA), pw("x")))
                .isExactlyInstanceOf(InvalidRecoveryKeyException.class)
                .hasMessageContaining("does not belong to this vault");
        assertThat(TreeSnapshot.of(temp.resolve("b"))).isEqualTo(before);

        Files.delete(temp.resolve("a/masterkey.coffer"));
        VaultAccess.resetPassphrase(temp.resolve("a"), String.join("  ", wordsA), pw("fresh"));
        assertThat(VaultAccess.recoveryKey(temp.resolve("a"), pw("fresh"))).isEqualTo(wordsA);
        try (Stream<Path> files = Files.list(temp.resolve("a"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("masterkey.coffer", "vault.coffer");
        }
    }

    @Test
    void aTamperedVaultCofferIsRefusedAndNeverAWrongPassphrase() throws IOException {
        VaultAccess.create(temp, pw("secret"), FAST).close();
        Path config = temp.resolve("vault.coffer");
        String[] parts = Files.readString(config).split("\\.");
        String payload = new String(JwsCompact.decode(parts[1], "p"), StandardCharsets.UTF_8).replace("220", "200");
        Files.writeString(config, parts[0] + "." + JwsCompact.encode(payload.getBytes(StandardCharsets.UTF_8)) + "." + parts[2]);
        assertThatThrownBy(() -> VaultAccess.unlock(temp, pw("secret")))
                .isExactlyInstanceOf(VaultFormatException.class)
                .hasMessage("vault.coffer: bad signature - tampered with, or belongs to another key");
        assertThatThrownBy(() -> VaultAccess.unlock(temp, pw("wrong"))).isExactlyInstanceOf(InvalidPassphraseException.class);
    }

    @Test
    void notAVaultMissingOrHugeRootFilesAreFormatProblems() throws IOException {
        assertThat(VaultAccess.isVault(temp)).isFalse();
        assertThatThrownBy(() -> VaultAccess.unlock(temp, pw("x")))
                .isExactlyInstanceOf(VaultFormatException.class)
                .hasMessageStartingWith("vault.coffer: not found");
        VaultAccess.create(temp, pw("secret"), FAST).close();
        Path masterkey = temp.resolve("masterkey.coffer");
        Files.write(masterkey, new byte[10 * 1024 * 1024]);
        assertThatThrownBy(() -> VaultAccess.unlock(temp, pw("secret")))
                .isExactlyInstanceOf(VaultFormatException.class)
                .hasMessage("masterkey.coffer: larger than 65536 bytes - refused");
        Files.delete(masterkey);
        assertThatThrownBy(() -> VaultAccess.unlock(temp, pw("secret")))
                .isExactlyInstanceOf(VaultFormatException.class)
                .hasMessageStartingWith("masterkey.coffer: not found");
        Files.createDirectory(masterkey);
        assertThatThrownBy(() -> VaultAccess.unlock(temp, pw("secret")))
                .hasMessage("masterkey.coffer: not a regular file");
    }
}
