package dev.coffer.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link AesSiv} with a vault-sized key: round trips with 0 to 3 associated-data components, and
 * every single-bit change to the ciphertext, the associated data or the component count fails
 * with {@link AuthenticationFailedException}.
 */
class AesSivRoundTripTest {
    private static final Random RANDOM = new Random(5297);

    static IntStream plaintextSizes() {
        return IntStream.concat(IntStream.rangeClosed(0, 48), IntStream.of(255, 1000, 4096, 70000));
    }

    @ParameterizedTest(name = "{0} bytes")
    @MethodSource("plaintextSizes")
    void roundTripsWithZeroToThreeComponents(int size) throws AuthenticationFailedException {
        AesSiv siv = new AesSiv(bytes(64));
        byte[] p = bytes(size);
        for (int n = 0; n <= 3; n++) {
            byte[][] ad = new byte[n][];
            for (int i = 0; i < n; i++) {
                ad[i] = bytes(RANDOM.nextInt(40));
            }
            byte[] c = siv.encrypt(p, ad);
            assertThat(c).hasSize(AesSiv.IV_LENGTH + size);
            assertThat(siv.encrypt(p, ad)).as("deterministic").isEqualTo(c);
            assertThat(siv.decrypt(c, ad)).isEqualTo(p);
        }
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 15, 16, 17, 33})
    void everyFlippedBitOfTheCiphertextIsDetected(int size) {
        AesSiv siv = new AesSiv(bytes(64));
        byte[] ad = bytes(10);
        byte[] c = siv.encrypt(bytes(size), ad);
        for (int bit = 0; bit < c.length * 8; bit++) {
            byte[] tampered = c.clone();
            tampered[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThatThrownBy(() -> siv.decrypt(tampered, ad)).as("bit %d", bit)
                    .isInstanceOf(AuthenticationFailedException.class);
        }
    }

    @Test
    void changedOrMissingAssociatedDataIsDetected() throws AuthenticationFailedException {
        AesSiv siv = new AesSiv(bytes(64));
        byte[] p = bytes(20);
        byte[] a = bytes(12);
        byte[] b = bytes(7);
        byte[] c = siv.encrypt(p, a, b);
        assertThat(siv.decrypt(c, a, b)).isEqualTo(p);

        byte[] a2 = a.clone();
        a2[11] ^= 1;
        assertAuthFails(siv, c, a2, b);
        assertAuthFails(siv, c, b, a); // order matters
        assertAuthFails(siv, c, a); // a component missing
        assertAuthFails(siv, c, a, b, new byte[0]); // an extra empty component
        assertAuthFails(siv, c, concat(a, b)); // components are not concatenated
    }

    @Test
    void zeroComponentsAndOneEmptyComponentDiffer() {
        AesSiv siv = new AesSiv(bytes(64));
        byte[] p = bytes(5);
        byte[] none = siv.encrypt(p);
        byte[] oneEmpty = siv.encrypt(p, new byte[0]);
        assertThat(none).isNotEqualTo(oneEmpty);
        assertAuthFails(siv, none, new byte[0]);
        assertAuthFails(siv, oneEmpty);
    }

    @Test
    void anotherKeyFails() {
        byte[] c = new AesSiv(bytes(64)).encrypt(bytes(30));
        assertAuthFails(new AesSiv(bytes(64)), c);
    }

    @Test
    void sameKeyHalvesSwappedGiveAnotherResult() {
        // First half keys S2V, second half CTR: swapping them must not give the same output.
        byte[] key = bytes(64);
        byte[] swapped = new byte[64];
        System.arraycopy(key, 32, swapped, 0, 32);
        System.arraycopy(key, 0, swapped, 32, 32);
        byte[] p = bytes(40);
        assertThat(new AesSiv(key).encrypt(p)).isNotEqualTo(new AesSiv(swapped).encrypt(p));
    }

    private static void assertAuthFails(AesSiv siv, byte[] c, byte[]... ad) {
        assertThatThrownBy(() -> siv.decrypt(c, ad)).isInstanceOf(AuthenticationFailedException.class);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }
}
