package dev.coffer.core.vault;

import static dev.coffer.core.vault.VaultRoundTripTest.FAST;
import static dev.coffer.core.vault.VaultRoundTripTest.pw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.crypto.MasterKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sync conflict copies of the root files (spec 2.1 and the README's interpretations). */
class ConflictCopiesTest {
    @TempDir
    Path temp;

    private Path vault;
    private MasterKey key;
    private VaultConfig config;

    @BeforeEach
    void createVault() throws IOException {
        vault = temp.resolve("vault");
        try (UnlockedVault v = VaultAccess.create(vault, pw("pass"), FAST)) {
            key = MasterKey.of(v.masterKey().copyBytes());
            config = v.config();
        }
    }

    private List<String> openWarnings() throws IOException {
        Map<String, String> before = TreeSnapshot.of(vault);
        try (UnlockedVault v = VaultAccess.unlock(vault, pw("pass"))) {
            assertThat(TreeSnapshot.of(vault)).as("copies are never touched").isEqualTo(before);
            return v.warnings();
        }
    }

    private void copyRootFile(String from, String to) throws IOException {
        Files.copy(vault.resolve(from), vault.resolve(to));
    }

    @Test
    void identicalCopiesAndUnrelatedNamesAreSilent() throws IOException {
        copyRootFile("masterkey.coffer", "masterkey (1).coffer");
        copyRootFile("vault.coffer", "vault (conflicted copy 2026-01-02).coffer");
        Files.writeString(vault.resolve("masterkey.coffer.0123abcd.bkup"), "old");
        Files.writeString(vault.resolve(".coffer-tmp-0011223344556677"), "partial");
        Files.writeString(vault.resolve("vault.coffer.txt"), "notes");
        Files.writeString(vault.resolve("my vault.coffer"), "not a copy: another prefix");
        Files.createDirectory(vault.resolve("vault (2).coffer"));
        assertThat(openWarnings()).isEmpty();
    }

    @Test
    void anUnreadableMasterkeyCopyIsNamedInAWarning() throws IOException {
        Files.writeString(vault.resolve("masterkey (1).coffer"), "{\"version\": 1, \"scryptSalt\": ");
        Files.write(vault.resolve("masterkey-big.coffer"), new byte[100_000]);
        assertThat(openWarnings()).hasSize(2)
                .anySatisfy(w -> assertThat(w).startsWith("masterkey (1).coffer: a conflict copy of masterkey.coffer that cannot be read (malformed JSON ("))
                .anySatisfy(w -> assertThat(w).startsWith("masterkey-big.coffer: ").contains("larger than 65536 bytes"));
    }

    @Test
    void aMasterkeyCopyUnderAnotherPassphraseCannotBeComparedAndIsNamed() throws IOException {
        VaultAccess.create(temp.resolve("other"), pw("other pass"), FAST).close();
        Files.copy(temp.resolve("other/masterkey.coffer"), vault.resolve("masterkey (1).coffer"));
        assertThat(openWarnings()).containsExactly("masterkey (1).coffer: a conflict copy of masterkey.coffer that does not"
                + " open with this passphrase and cannot be compared; opened with masterkey.coffer");
    }

    @Test
    void aMasterkeyCopyWrappingAnotherKeyUnderThisPassphraseStopsTheOpening() throws IOException {
        VaultAccess.create(temp.resolve("other"), pw("pass"), FAST).close();
        Files.copy(temp.resolve("other/masterkey.coffer"), vault.resolve("masterkey (1).coffer"));
        assertThatThrownBy(() -> VaultAccess.unlock(vault, pw("pass")))
                .isExactlyInstanceOf(VaultFormatException.class)
                .hasMessage("masterkey.coffer and masterkey (1).coffer wrap different master keys: opening stopped"
                        + " - keep the right one and remove the other");
    }

    @Test
    void aMasterkeyCopyOfTheSameKeyWithAnotherSaltOpensWithAWarning() throws IOException {
        byte[] before = Files.readAllBytes(vault.resolve("masterkey.coffer"));
        VaultAccess.changePassphrase(vault, pw("pass"), pw("pass"));
        Files.write(vault.resolve("masterkey-DESKTOP-4F2G.coffer"), before);
        assertThat(openWarnings()).containsExactly("masterkey-DESKTOP-4F2G.coffer: a conflict copy of masterkey.coffer"
                + " that wraps the same master key (another salt or scrypt parameters); it can be removed");
    }

    @Test
    void aVaultCopySignedWithOurKeyButAnotherConfigurationStopsTheOpening() throws IOException {
        VaultConfig other = new VaultConfig(1, config.cipherCombo(), 100, 4096, config.jti());
        Files.write(vault.resolve("vault (1).coffer"), VaultConfigJwt.write(other, key));
        assertThatThrownBy(() -> VaultAccess.unlock(vault, pw("pass")))
                .isExactlyInstanceOf(VaultFormatException.class)
                .hasMessage("vault.coffer and vault (1).coffer disagree (another configuration or key): opening stopped"
                        + " - keep the right one and remove the other");
    }

    @Test
    void aVaultCopyOfAnotherVaultOrUnreadableIsNamedInAWarning() throws IOException {
        VaultAccess.create(temp.resolve("other"), pw("pass"), FAST).close();
        Files.copy(temp.resolve("other/vault.coffer"), vault.resolve("vault (1).coffer"));
        Files.writeString(vault.resolve("vault (2).coffer"), "garbage");
        assertThat(openWarnings()).containsExactly(
                "vault (1).coffer: a conflict copy of vault.coffer that is not signed with this vault's key;"
                        + " opened with vault.coffer",
                "vault (2).coffer: a conflict copy of vault.coffer that cannot be read (not a JWS compact token"
                        + " (three Base64url parts joined by dots)); opened with vault.coffer");
    }

    @Test
    void aVaultCopyDifferingOnlyInWhitespaceIsNamedButAgrees() throws IOException {
        String token = Files.readString(vault.resolve("vault.coffer"), StandardCharsets.US_ASCII);
        Files.writeString(vault.resolve("vault (1).coffer"), token + "\r\n");
        assertThat(openWarnings()).containsExactly("vault (1).coffer: a conflict copy of vault.coffer with the same"
                + " configuration, stored differently; it can be removed");
    }
}
