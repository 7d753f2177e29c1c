package dev.coffer.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.IntStream;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link AesXts} beyond the published vectors: round trips for unit sizes from 16 bytes to ~70 KB
 * (every ciphertext-stealing tail), in place, through one reused instance, and agreement with a naive
 * block-at-a-time reference ({@link XtsReference}) that the IEEE vectors anchor.
 */
class AesXtsRoundTripTest {
    private static final Random RANDOM = new Random(0x1619);

    static IntStream sizes() {
        IntStream small = IntStream.rangeClosed(16, 100);
        IntStream units = IntStream.of(4095, 4096, 4097, 4111, 4112, 8191, 8192, 4096 + 15, 65536, 70000);
        IntStream random = RANDOM.ints(40, 16, 70001);
        return IntStream.concat(IntStream.concat(small, units), random);
    }

    @ParameterizedTest(name = "{0} bytes")
    @MethodSource("sizes")
    void roundTripMatchesTheReference(int size) {
        byte[] key = bytes(64);
        byte[] tweak = bytes(16);
        byte[] p = bytes(size);
        AesXts xts = new AesXts(key);

        byte[] c = new byte[size];
        xts.encrypt(tweak, 0, p, 0, c, 0, size);
        assertThat(c).isEqualTo(XtsReference.crypt(true, key, tweak, p)).isNotEqualTo(p);

        byte[] back = new byte[size];
        xts.decrypt(tweak, 0, c, 0, back, 0, size);
        assertThat(back).isEqualTo(p);
    }

    @ParameterizedTest(name = "{0} bytes")
    @MethodSource("sizes")
    void inPlaceEqualsOutOfPlace(int size) {
        byte[] key = bytes(64);
        byte[] tweak = bytes(16);
        byte[] p = bytes(size);
        AesXts xts = new AesXts(key);
        byte[] c = new byte[size];
        xts.encrypt(tweak, 0, p, 0, c, 0, size);

        byte[] buf = p.clone();
        xts.encrypt(tweak, 0, buf, 0, buf, 0, size);
        assertThat(buf).isEqualTo(c);
        xts.decrypt(tweak, 0, buf, 0, buf, 0, size);
        assertThat(buf).isEqualTo(p);
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {16, 17, 31, 32, 4096, 4111})
    void differentTweaksGiveDifferentCiphertexts(int size) {
        AesXts xts = new AesXts(bytes(64));
        byte[] p = bytes(size);
        byte[] tweak = bytes(16);
        byte[] c1 = new byte[size];
        xts.encrypt(tweak, 0, p, 0, c1, 0, size);
        for (int bit = 0; bit < 128; bit += 9) {
            byte[] other = tweak.clone();
            other[bit / 8] ^= (byte) (1 << (bit % 8));
            byte[] c2 = new byte[size];
            xts.encrypt(other, 0, p, 0, c2, 0, size);
            // Every 16-byte block changes, not just the ciphertext as a whole.
            for (int off = 0; off + 16 <= size; off += 16) {
                assertThat(Arrays.equals(c1, off, off + 16, c2, off, off + 16))
                        .as("block at %d, tweak bit %d", off, bit).isFalse();
            }
        }
    }

    @Test
    void oneInstanceServesManySizesInAnyOrder() {
        byte[] key = bytes(64);
        AesXts xts = new AesXts(key);
        for (int size : new int[] {70000, 16, 4111, 17, 65536, 31, 4096, 70000, 33}) {
            byte[] tweak = bytes(16);
            byte[] p = bytes(size);
            byte[] c = new byte[size];
            xts.encrypt(tweak, 0, p, 0, c, 0, size);
            assertThat(c).as("%d bytes", size).isEqualTo(XtsReference.crypt(true, key, tweak, p));
            xts.decrypt(tweak, 0, c, 0, c, 0, size);
            assertThat(c).as("%d bytes", size).isEqualTo(p);
        }
    }

    /**
     * Decryption goes through a CBC cipher whose chaining block carries over from call to call: many
     * decryptions in a row (whole units, stolen tails, single blocks), across a rekey and a wipe of the
     * scratch arrays, each still equal to the reference's.
     */
    @Test
    void decryptionsInARowAcrossRekeysAndWipesMatchTheReference() {
        java.util.Random rnd = new java.util.Random(11);
        byte[] key = bytes(64);
        AesXts xts = new AesXts(key);
        for (int i = 0; i < 300; i++) {
            if (i % 37 == 36) {
                key = bytes(64);
                xts.rekey(key);
            } else if (i % 23 == 22) {
                xts.wipeScratch();
            }
            int size = switch (i % 4) {
                case 0 -> 4096;
                case 1 -> 16 + rnd.nextInt(100);
                case 2 -> 16;
                default -> 16 + rnd.nextInt(5000);
            };
            byte[] tweak = bytes(16);
            byte[] c = bytes(size);
            byte[] expected = XtsReference.crypt(false, key, tweak, c);
            if (i % 3 == 0) { // in place, at an offset
                byte[] buf = new byte[size + 7];
                System.arraycopy(c, 0, buf, 7, size);
                xts.decrypt(tweak, 0, buf, 7, buf, 7, size);
                assertThat(Arrays.copyOfRange(buf, 7, 7 + size)).as("decryption %d in place, %d bytes", i, size)
                        .isEqualTo(expected);
            } else {
                byte[] in = new byte[size + 3];
                System.arraycopy(c, 0, in, 3, size);
                byte[] p = new byte[size + 5];
                xts.decrypt(tweak, 0, in, 3, p, 5, size);
                assertThat(Arrays.copyOfRange(p, 5, 5 + size)).as("decryption %d, %d bytes", i, size)
                        .isEqualTo(expected);
            }
            if (i % 5 == 0) { // the encrypting ciphers in between leave the decrypting one's chain alone
                byte[] plain = bytes(size);
                byte[] enc = new byte[size];
                xts.encrypt(tweak, 0, plain, 0, enc, 0, size);
                assertThat(enc).isEqualTo(XtsReference.crypt(true, key, tweak, plain));
                xts.tinyKeystream(tweak, 0, new byte[16], 0);
            }
        }
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {16, 17, 31, 32, 33, 47, 100, 4096, 4111})
    void overlappingInAndOutInOneArray(int size) {
        // E.g. plaintext at 0 encrypted into the same buffer at 16, to make room for the nonce.
        byte[] key = bytes(64);
        byte[] tweak = bytes(16);
        byte[] p = bytes(size);
        byte[] expected = XtsReference.crypt(true, key, tweak, p);
        AesXts xts = new AesXts(key);
        for (int shift : new int[] {-33, -16, -1, 1, 15, 16, 17, 32}) {
            int inOff = Math.max(0, -shift);
            int outOff = inOff + shift;
            byte[] buf = new byte[size + Math.abs(shift)];
            System.arraycopy(p, 0, buf, inOff, size);
            xts.encrypt(tweak, 0, buf, inOff, buf, outOff, size);
            assertThat(Arrays.copyOfRange(buf, outOff, outOff + size)).as("encrypt, shift %d", shift)
                    .isEqualTo(expected);
            xts.decrypt(tweak, 0, buf, outOff, buf, inOff, size);
            assertThat(Arrays.copyOfRange(buf, inOff, inOff + size)).as("decrypt, shift %d", -shift).isEqualTo(p);
        }
    }

    @Test
    void xtsAes128AgreesWithTheReferenceToo() {
        byte[] key = bytes(32);
        AesXts xts = new AesXts(key);
        for (int size = 16; size <= 64; size++) {
            byte[] tweak = bytes(16);
            byte[] p = bytes(size);
            byte[] c = new byte[size];
            xts.encrypt(tweak, 0, p, 0, c, 0, size);
            assertThat(c).as("%d bytes", size).isEqualTo(XtsReference.crypt(true, key, tweak, p));
        }
    }

    @Test
    void referenceReproducesIeeeVector18() {
        // Anchors the reference itself to a published stealing vector.
        HexFormat hex = HexFormat.of();
        byte[] c = XtsReference.crypt(true,
                hex.parseHex("fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0"),
                AesXtsIeeeVectorsTest.tweak(0x123456789aL), hex.parseHex("000102030405060708090a0b0c0d0e0f10111213"));
        assertThat(hex.formatHex(c)).isEqualTo("9d84c813f719aa2c7be3f66171c7c5c2edbf9dac");
    }

    @Test
    void tinyKeystreamIsAesK1OfAesK2OfTheTweak() throws Exception {
        byte[] key = bytes(64);
        byte[] tweak = bytes(16);
        byte[] ks = new byte[18];
        new AesXts(key).tinyKeystream(tweak, 0, ks, 1);

        Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
        aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, 32, 32, "AES"));
        byte[] encryptedTweak = aes.doFinal(tweak);
        aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, 0, 32, "AES"));
        assertThat(Arrays.copyOfRange(ks, 1, 17)).isEqualTo(aes.doFinal(encryptedTweak));
        assertThat(ks[0]).isZero();
        assertThat(ks[17]).isZero();
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }
}
