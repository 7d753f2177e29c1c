package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every vault of testdata/config-accept opens (controls against an over-strict reader). */
class ConfigAcceptTest {
    private static final String JTI = "568cae9f-98d6-43b6-a58e-b16a959e3646";

    @TempDir
    Path temp;

    @Test
    void theCaseListIsComplete() throws IOException {
        try (Stream<Path> list = Files.list(TestData.testdata().resolve("config-accept"))) {
            assertThat(list.filter(Files::isDirectory).count()).isEqualTo(8);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ok-whitespace-around-jwt", "ok-unknown-fields", "ok-salt-8-bytes", "ok-salt-64-bytes",
        "ok-scrypt-r-33-p-2", "ok-threshold-36", "ok-identical-copies", "ok-copy-same-key-new-salt"})
    void opensWithThePassphraseAndWritesNothing(String name) throws IOException {
        Path vault = TestData.copyVault("config-accept/" + name, temp);
        try (UnlockedVault unlocked = VaultAccess.unlock(vault, TestData.PASSPHRASE.toCharArray())) {
            VaultConfig config = unlocked.config();
            assertThat(config.jti()).isEqualTo(JTI);
            assertThat(config.cipherCombo()).isEqualTo(CipherCombo.SIV_XTSHMAC);
            assertThat(config.sectorSize()).isEqualTo(4096);
            assertThat(config.shorteningThreshold()).isEqualTo(name.equals("ok-threshold-36") ? 36 : 220);
            assertThat(unlocked.masterKey().isDestroyed()).isFalse();
            assertThat(unlocked.warnings()).isEqualTo(expectedWarnings(name));
        }
        assertThat(TreeSnapshot.of(vault)).isEqualTo(TreeSnapshot.of(TestData.testdata().resolve("config-accept/" + name)));
    }

    /** Identical copies are silent; a copy wrapping the same key with another salt is named. */
    private static List<String> expectedWarnings(String name) {
        if (name.equals("ok-copy-same-key-new-salt")) {
            return List.of("masterkey-DESKTOP-4F2G.coffer: a conflict copy of masterkey.coffer that wraps the same"
                    + " master key (another salt or scrypt parameters); it can be removed");
        }
        return List.of();
    }
}
