package dev.coffer.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Known-answer tests of {@link KeyWrap} against RFC 3394 section 4, vectors 4.1 to 4.6. */
class KeyWrapRfc3394Test {
    private static final HexFormat HEX = HexFormat.of();
    private static final String KEK_128 = "000102030405060708090a0b0c0d0e0f";
    private static final String KEK_192 = KEK_128 + "1011121314151617";
    private static final String KEK_256 = KEK_128 + "101112131415161718191a1b1c1d1e1f";
    private static final String DATA_128 = "00112233445566778899aabbccddeeff";
    private static final String DATA_192 = DATA_128 + "0001020304050607";
    private static final String DATA_256 = DATA_128 + "000102030405060708090a0b0c0d0e0f";

    static Stream<Arguments> vectors() {
        return Stream.of(
                Arguments.of("4.1", KEK_128, DATA_128, "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5"),
                Arguments.of("4.2", KEK_192, DATA_128, "96778b25ae6ca435f92b5b97c050aed2468ab8a17ad84e5d"),
                Arguments.of("4.3", KEK_256, DATA_128, "64e8c3f9ce0f5ba263e9777905818a2a93c8191e7d6e8ae7"),
                Arguments.of("4.4", KEK_192, DATA_192,
                        "031d33264e15d33268f24ec260743edce1c6c7ddee725a936ba814915c6762d2"),
                Arguments.of("4.5", KEK_256, DATA_192,
                        "a8f9bc1612c68b3ff6e6f4fbe30e71e4769c8b80a32cb8958cd5d17d6b254da1"),
                Arguments.of("4.6", KEK_256, DATA_256,
                        "28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43bfb988b9b7a02dd21"));
    }

    @ParameterizedTest(name = "RFC 3394 {0}")
    @MethodSource("vectors")
    void wraps(String name, String kek, String keyData, String wrapped) {
        assertThat(HEX.formatHex(KeyWrap.wrap(HEX.parseHex(kek), HEX.parseHex(keyData)))).isEqualTo(wrapped);
    }

    @ParameterizedTest(name = "RFC 3394 {0}")
    @MethodSource("vectors")
    void unwraps(String name, String kek, String keyData, String wrapped) throws AuthenticationFailedException {
        assertThat(HEX.formatHex(KeyWrap.unwrap(HEX.parseHex(kek), HEX.parseHex(wrapped)))).isEqualTo(keyData);
    }
}
