package dev.coffer.core.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.testing.SharedTestData;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The intact vaults of the independent implementation are healthy: zero findings, and checking writes nothing. */
class SampleVaultHealthTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"sample-vault-xtshmac", "sample-vault-xts", "small-vault-threshold36"})
    void hasNoFindings(String name) throws IOException {
        Path vault = SharedTestData.copyVault(name, tmp);
        Map<String, String> before = Snapshots.of(vault);
        try (UnlockedVault u = VaultAccess.unlock(vault, SharedTestData.PASSPHRASE.toCharArray()); VaultHealth health = VaultHealth.of(u)) {
            HealthReport report = health.check();
            assertThat(report.findings()).isEmpty();
            assertThat(report.repairs()).isEmpty();
            assertThat(report.healthy()).isTrue();
        }
        assertThat(Snapshots.of(vault)).isEqualTo(before);
    }
}
