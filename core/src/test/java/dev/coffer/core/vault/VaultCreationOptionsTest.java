package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Creation options refuse what a reader would refuse. */
class VaultCreationOptionsTest {
    @Test
    void defaults() {
        assertThat(VaultCreationOptions.defaults())
                .isEqualTo(new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 17, 220));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -16384, 8192, 100000, 1 << 21, Integer.MIN_VALUE})
    void refusesCostParametersAReaderWouldRefuse(int n) {
        assertThatThrownBy(() -> new VaultCreationOptions(CipherCombo.SIV_XTS, n, 220))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {35, 221, 0, -1})
    void refusesThresholdsOutside36To220(int threshold) {
        assertThatThrownBy(() -> new VaultCreationOptions(CipherCombo.SIV_XTS, 1 << 14, threshold))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shorteningThreshold " + threshold + " outside 36..220");
    }

    @Test
    void acceptsTheLimits() {
        assertThat(new VaultCreationOptions(CipherCombo.SIV_XTS, 1 << 14, 36).scryptCostParam()).isEqualTo(1 << 14);
        assertThat(new VaultCreationOptions(CipherCombo.SIV_XTS, 1 << 20, 220).scryptCostParam()).isEqualTo(1 << 20);
        assertThatThrownBy(() -> new VaultCreationOptions(null, 1 << 14, 36)).isInstanceOf(NullPointerException.class);
    }
}
