package dev.coffer.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Wrong input to the primitives fails loudly with the documented exception: wrong key lengths with
 * {@link IllegalArgumentException}, inputs that cannot be authentic with
 * {@link AuthenticationFailedException}; never a silent result or a {@link CryptoException}.
 */
class GarbageInputTest {
    private static final Random RANDOM = new Random(42);

    @ParameterizedTest(name = "{0}-byte key")
    @ValueSource(ints = {0, 1, 16, 24, 31, 33, 48, 63, 65, 128})
    void xtsRejectsWrongKeyLengths(int length) {
        assertThatThrownBy(() -> new AesXts(new byte[length])).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0}-byte key")
    @ValueSource(ints = {0, 1, 16, 24, 31, 33, 48, 63, 65, 128})
    void sivRejectsWrongKeyLengths(int length) {
        assertThatThrownBy(() -> new AesSiv(new byte[length])).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0}-byte key")
    @ValueSource(ints = {0, 32, 63, 65, 128})
    void masterKeyRejectsWrongLengths(int length) {
        assertThatThrownBy(() -> MasterKey.of(new byte[length])).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0}-byte KEK")
    @ValueSource(ints = {0, 8, 15, 17, 31, 33, 64})
    void keyWrapRejectsWrongKekLengths(int length) {
        byte[] kek = new byte[length];
        assertThatThrownBy(() -> KeyWrap.wrap(kek, new byte[64])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyWrap.unwrap(kek, new byte[72])).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0} bytes of key data")
    @ValueSource(ints = {0, 8, 15, 17, 63})
    void keyWrapRejectsKeyDataItCannotWrap(int length) {
        assertThatThrownBy(() -> KeyWrap.wrap(new byte[32], new byte[length]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 15})
    void xtsRejectsUnitsUnder16Bytes(int length) {
        AesXts xts = new AesXts(bytes(64));
        byte[] buf = new byte[32];
        assertThatThrownBy(() -> xts.encrypt(new byte[16], 0, buf, 0, buf, 0, length))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> xts.decrypt(new byte[16], 0, buf, 0, buf, 0, length))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 15})
    void sivCiphertextShorterThanItsIvFailsAuthentication(int length) {
        AesSiv siv = new AesSiv(bytes(64));
        assertThatThrownBy(() -> siv.decrypt(new byte[length])).isInstanceOf(AuthenticationFailedException.class);
        assertThatThrownBy(() -> siv.decrypt(new byte[length], new byte[0]))
                .isInstanceOf(AuthenticationFailedException.class);
    }

    @Test
    void unwrapWithTheWrongKekFailsAuthentication() {
        byte[] wrapped = KeyWrap.wrap(bytes(32), bytes(64));
        assertThatThrownBy(() -> KeyWrap.unwrap(bytes(32), wrapped))
                .isInstanceOf(AuthenticationFailedException.class);
    }

    @Test
    void unwrapOfAChangedByteFailsAuthentication() {
        byte[] kek = bytes(32);
        byte[] wrapped = KeyWrap.wrap(kek, bytes(64));
        for (int i = 0; i < wrapped.length; i++) {
            byte[] tampered = wrapped.clone();
            tampered[i] ^= 0x01;
            assertThatThrownBy(() -> KeyWrap.unwrap(kek, tampered)).as("byte %d", i)
                    .isInstanceOf(AuthenticationFailedException.class);
        }
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 8, 16, 23, 25, 64, 71, 73})
    void unwrapOfAWrongLengthFailsAuthentication(int length) {
        byte[] kek = bytes(32);
        byte[] wrapped = new byte[length];
        assertThatThrownBy(() -> KeyWrap.unwrap(kek, wrapped)).isInstanceOf(AuthenticationFailedException.class);
    }

    @Test
    void unwrapOfATruncatedWrapFailsAuthentication() {
        byte[] kek = bytes(32);
        byte[] wrapped = KeyWrap.wrap(kek, bytes(64));
        byte[] shorter = java.util.Arrays.copyOf(wrapped, 64);
        assertThatThrownBy(() -> KeyWrap.unwrap(kek, shorter)).isInstanceOf(AuthenticationFailedException.class);
    }

    @Test
    void hkdfRejectsImpossibleLengths() {
        assertThatThrownBy(() -> Hkdf.sha256(bytes(32), new byte[0], -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Hkdf.sha256(bytes(32), new byte[0], 255 * 32 + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Hkdf.sha256(bytes(32), new byte[0], 255 * 32)).hasSize(255 * 32);
    }

    @Test
    void scryptRejectsImpossibleParameters() {
        assertThatThrownBy(() -> Scrypt.derive(bytes(8), bytes(16), 1000, 8, 1, 32))
                .as("N not a power of two").isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Scrypt.derive(bytes(8), bytes(16), 1024, 8, 0, 32))
                .as("p = 0").isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }
}
