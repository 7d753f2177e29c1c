package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The scrypt limits of spec 2.1 with the reference messages, and raising on a passphrase change. */
class ScryptParamsTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1073741824|8|1|scrypt N*r = 8589934592 exceeds 2^23 (more than 1 GiB of memory)",
        "100000|8|1|scrypt N = 100000 must be a power of two and at least 2^14",
        "8192|8|1|scrypt N = 8192 must be a power of two and at least 2^14",
        "0|8|1|scrypt N = 0 must be a power of two and at least 2^14",
        "-16384|8|1|scrypt N = -16384 must be a power of two and at least 2^14",
        "1048576|16|1|scrypt N*r = 16777216 exceeds 2^23 (more than 1 GiB of memory)",
        "16384|8|512|scrypt N*r*p = 67108864 exceeds 2^25",
        "16384|0|1|scrypt r = 0, p = 1: both must be at least 1",
        "16384|8|0|scrypt r = 8, p = 0: both must be at least 1",
        "16384|-1|-1|scrypt r = -1, p = -1: both must be at least 1",
        "4611686018427387904|9223372036854775807|9223372036854775807|scrypt N*r = 42535295865117307928310139910543638528 exceeds 2^23 (more than 1 GiB of memory)",
        "131072|1|1|scrypt N = 131072 must be less than 2^(16*r) = 2^16 (RFC 7914)",
        "65536|1|1|scrypt N = 65536 must be less than 2^(16*r) = 2^16 (RFC 7914)",
    })
    void refusesWithTheReferenceMessages(long n, long r, long p, String message) {
        assertThatThrownBy(() -> new ScryptParams(n, r, p).validate("masterkey.coffer"))
                .isInstanceOf(VaultFormatException.class)
                .hasMessage("masterkey.coffer: " + message);
    }

    @ParameterizedTest
    @CsvSource({"16384,8,1", "131072,8,1", "32768,1,1", "16384,33,2", "1048576,8,4", "16384,1,2048", "4194304,2,4"})
    void acceptsTheLimitsThemselves(long n, long r, long p) {
        assertThatCode(() -> new ScryptParams(n, r, p).validate("f")).doesNotThrowAnyException();
    }

    @Test
    void aPassphraseChangeRaisesToTheDefaultsWhereTheLimitsAllow() {
        assertThat(new ScryptParams(16384, 8, 1).raisedToDefaults()).isEqualTo(new ScryptParams(131072, 8, 1));
        assertThat(new ScryptParams(16384, 33, 2).raisedToDefaults()).isEqualTo(new ScryptParams(131072, 33, 2));
        assertThat(new ScryptParams(1048576, 8, 4).raisedToDefaults()).isEqualTo(new ScryptParams(1048576, 8, 4));
        // raising r to 8 would need N*r = 2^24: the valid old set stays
        assertThat(new ScryptParams(2097152, 2, 1).raisedToDefaults()).isEqualTo(new ScryptParams(2097152, 2, 1));
    }
}
