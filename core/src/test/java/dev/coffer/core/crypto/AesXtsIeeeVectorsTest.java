package dev.coffer.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Known-answer tests of {@link AesXts} against IEEE Std 1619-2007 Annex B: vectors 1-4 (XTS-AES-128,
 * whole blocks), 10 and 11 (XTS-AES-256, 512-byte units) and 15-18 (XTS-AES-128, 17 to 20 bytes:
 * ciphertext stealing). Each vector is checked in both directions, out of place and in place.
 */
class AesXtsIeeeVectorsTest {
    private static final HexFormat HEX = HexFormat.of();

    private static final String KEY_10 = "2718281828459045235360287471352662497757247093699959574966967627"
            + "3141592653589793238462643383279502884197169399375105820974944592";
    private static final String KEY_15 = "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0" + "bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0";

    static Stream<Arguments> vectors() {
        return Stream.of(
                Arguments.of(1, "00".repeat(32), 0L, "00".repeat(32),
                        "917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e"),
                Arguments.of(2, "11".repeat(16) + "22".repeat(16), 0x3333333333L, "44".repeat(32),
                        "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0"),
                Arguments.of(3, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0" + "22".repeat(16), 0x3333333333L, "44".repeat(32),
                        "af85336b597afc1a900b2eb21ec949d292df4c047e0b21532186a5971a227a89"),
                Arguments.of(4, "27182818284590452353602874713526" + "31415926535897932384626433832795", 0L,
                        sequence512(), VECTOR_4_CTX),
                Arguments.of(10, KEY_10, 0xffL, sequence512(), VECTOR_10_CTX),
                Arguments.of(11, KEY_10, 0xffffL, sequence512(), VECTOR_11_CTX),
                Arguments.of(15, KEY_15, 0x123456789aL, "000102030405060708090a0b0c0d0e0f10",
                        "6c1625db4671522d3d7599601de7ca09ed"),
                Arguments.of(16, KEY_15, 0x123456789aL, "000102030405060708090a0b0c0d0e0f1011",
                        "d069444b7a7e0cab09e24447d24deb1fedbf"),
                Arguments.of(17, KEY_15, 0x123456789aL, "000102030405060708090a0b0c0d0e0f101112",
                        "e5df1351c0544ba1350b3363cd8ef4beedbf9d"),
                Arguments.of(18, KEY_15, 0x123456789aL, "000102030405060708090a0b0c0d0e0f10111213",
                        "9d84c813f719aa2c7be3f66171c7c5c2edbf9dac"));
    }

    @ParameterizedTest(name = "IEEE 1619 vector {0}")
    @MethodSource("vectors")
    void encryptsToTheStandardsCiphertext(int vector, String key, long unit, String ptx, String ctx) {
        byte[] p = HEX.parseHex(ptx);
        byte[] out = new byte[p.length];
        AesXts xts = new AesXts(HEX.parseHex(key));
        xts.encrypt(tweak(unit), 0, p, 0, out, 0, p.length);
        assertThat(HEX.formatHex(out)).isEqualTo(ctx);
    }

    @ParameterizedTest(name = "IEEE 1619 vector {0}")
    @MethodSource("vectors")
    void decryptsTheStandardsCiphertext(int vector, String key, long unit, String ptx, String ctx) {
        byte[] c = HEX.parseHex(ctx);
        byte[] out = new byte[c.length];
        AesXts xts = new AesXts(HEX.parseHex(key));
        xts.decrypt(tweak(unit), 0, c, 0, out, 0, c.length);
        assertThat(HEX.formatHex(out)).isEqualTo(ptx);
    }

    @ParameterizedTest(name = "IEEE 1619 vector {0}")
    @MethodSource("vectors")
    void worksInPlaceAtAnOffset(int vector, String key, long unit, String ptx, String ctx) {
        byte[] p = HEX.parseHex(ptx);
        byte[] buf = new byte[p.length + 7];
        System.arraycopy(p, 0, buf, 5, p.length);
        byte[] t = new byte[19];
        System.arraycopy(tweak(unit), 0, t, 3, 16);
        AesXts xts = new AesXts(HEX.parseHex(key));

        xts.encrypt(t, 3, buf, 5, buf, 5, p.length);
        assertThat(HEX.formatHex(buf, 5, 5 + p.length)).isEqualTo(ctx);
        xts.decrypt(t, 3, buf, 5, buf, 5, p.length);
        assertThat(HEX.formatHex(buf, 5, 5 + p.length)).isEqualTo(ptx);
        assertThat(buf).startsWith(0, 0, 0, 0, 0).endsWith(0, 0);
    }

    /** The data unit sequence number as IEEE 1619 turns it into a tweak: 16 bytes, little-endian. */
    static byte[] tweak(long unit) {
        byte[] t = new byte[16];
        for (int i = 0; i < 8; i++) {
            t[i] = (byte) (unit >>> (8 * i));
        }
        return t;
    }

    /** 00 01 ... ff twice: the 512-byte plaintext of vectors 4, 10 and 11. */
    private static String sequence512() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 512; i++) {
            sb.append(HEX.toHexDigits((byte) i));
        }
        return sb.toString();
    }

    private static final String VECTOR_4_CTX =
            "27a7479befa1d476489f308cd4cfa6e2a96e4bbe3208ff25287dd3819616e89c"
            + "c78cf7f5e543445f8333d8fa7f56000005279fa5d8b5e4ad40e736ddb4d35412"
            + "328063fd2aab53e5ea1e0a9f332500a5df9487d07a5c92cc512c8866c7e860ce"
            + "93fdf166a24912b422976146ae20ce846bb7dc9ba94a767aaef20c0d61ad0265"
            + "5ea92dc4c4e41a8952c651d33174be51a10c421110e6d81588ede82103a252d8"
            + "a750e8768defffed9122810aaeb99f9172af82b604dc4b8e51bcb08235a6f434"
            + "1332e4ca60482a4ba1a03b3e65008fc5da76b70bf1690db4eae29c5f1badd03c"
            + "5ccf2a55d705ddcd86d449511ceb7ec30bf12b1fa35b913f9f747a8afd1b130e"
            + "94bff94effd01a91735ca1726acd0b197c4e5b03393697e126826fb6bbde8ecc"
            + "1e08298516e2c9ed03ff3c1b7860f6de76d4cecd94c8119855ef5297ca67e9f3"
            + "e7ff72b1e99785ca0a7e7720c5b36dc6d72cac9574c8cbbc2f801e23e56fd344"
            + "b07f22154beba0f08ce8891e643ed995c94d9a69c9f1b5f499027a78572aeebd"
            + "74d20cc39881c213ee770b1010e4bea718846977ae119f7a023ab58cca0ad752"
            + "afe656bb3c17256a9f6e9bf19fdd5a38fc82bbe872c5539edb609ef4f79c203e"
            + "bb140f2e583cb2ad15b4aa5b655016a8449277dbd477ef2c8d6c017db738b18d"
            + "eb4a427d1923ce3ff262735779a418f20a282df920147beabe421ee5319d0568";

    private static final String VECTOR_10_CTX =
            "1c3b3a102f770386e4836c99e370cf9bea00803f5e482357a4ae12d414a3e63b"
            + "5d31e276f8fe4a8d66b317f9ac683f44680a86ac35adfc3345befecb4bb188fd"
            + "5776926c49a3095eb108fd1098baec70aaa66999a72a82f27d848b21d4a741b0"
            + "c5cd4d5fff9dac89aeba122961d03a757123e9870f8acf1000020887891429ca"
            + "2a3e7a7d7df7b10355165c8b9a6d0a7de8b062c4500dc4cd120c0f7418dae3d0"
            + "b5781c34803fa75421c790dfe1de1834f280d7667b327f6c8cd7557e12ac3a0f"
            + "93ec05c52e0493ef31a12d3d9260f79a289d6a379bc70c50841473d1a8cc81ec"
            + "583e9645e07b8d9670655ba5bbcfecc6dc3966380ad8fecb17b6ba02469a020a"
            + "84e18e8f84252070c13e9f1f289be54fbc481457778f616015e1327a02b140f1"
            + "505eb309326d68378f8374595c849d84f4c333ec4423885143cb47bd71c5edae"
            + "9be69a2ffeceb1bec9de244fbe15992b11b77c040f12bd8f6a975a44a0f90c29"
            + "a9abc3d4d893927284c58754cce294529f8614dcd2aba991925fedc4ae74ffac"
            + "6e333b93eb4aff0479da9a410e4450e0dd7ae4c6e2910900575da401fc07059f"
            + "645e8b7e9bfdef33943054ff84011493c27b3429eaedb4ed5376441a77ed4385"
            + "1ad77f16f541dfd269d50d6a5f14fb0aab1cbb4c1550be97f7ab4066193c4caa"
            + "773dad38014bd2092fa755c824bb5e54c4f36ffda9fcea70b9c6e693e148c151";

    private static final String VECTOR_11_CTX =
            "77a31251618a15e6b92d1d66dffe7b50b50bad552305ba0217a610688eff7e11"
            + "e1d0225438e093242d6db274fde801d4cae06f2092c728b2478559df58e837c2"
            + "469ee4a4fa794e4bbc7f39bc026e3cb72c33b0888f25b4acf56a2a9804f1ce6d"
            + "3d6e1dc6ca181d4b546179d55544aa7760c40d06741539c7e3cd9d2f6650b201"
            + "3fd0eeb8c2b8e3d8d240ccae2d4c98320a7442e1c8d75a42d6e6cfa4c2eca179"
            + "8d158c7aecdf82490f24bb9b38e108bcda12c3faf9a21141c3613b58367f922a"
            + "aa26cd22f23d708dae699ad7cb40a8ad0b6e2784973dcb605684c08b8d6998c6"
            + "9aac049921871ebb65301a4619ca80ecb485a31d744223ce8ddc2394828d6a80"
            + "470c092f5ba413c3378fa6054255c6f9df4495862bbb3287681f931b687c888a"
            + "bf844dfc8fc28331e579928cd12bd2390ae123cf03818d14dedde5c0c24c8ab0"
            + "18bfca75ca096f2d531f3d1619e785f1ada437cab92e980558b3dce1474afb75"
            + "bfedbf8ff54cb2618e0244c9ac0d3c66fb51598cd2db11f9be39791abe447c63"
            + "094f7c453b7ff87cb5bb36b7c79efb0872d17058b83b15ab0866ad8a58656c5a"
            + "7e20dbdf308b2461d97c0ec0024a2715055249cf3b478ddd4740de654f75ca68"
            + "6e0d7345c69ed50cdc2a8b332b1f8824108ac937eb050585608ee734097fc090"
            + "54fbff89eeaeea791f4a7ab1f9868294a4f9e27b42af8100cb9d59cef9645803";
}
