package dev.coffer.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link AesSiv} with the vault's 64-byte sivKey against every item of vectors.json's {@code siv}
 * list, including zero associated-data components versus one empty component (spec 3).
 */
class SivVectorsTest {
    private static final HexFormat HEX = HexFormat.of();

    static Stream<Arguments> items() {
        return StreamSupport.stream(TestVectors.root().get("siv").spliterator(), false)
                .map(item -> Arguments.of(TestVectors.text(item, "why"), item));
    }

    private static AesSiv siv() {
        return new AesSiv(TestVectors.hex(TestVectors.root().get("derivedKeys"), "sivKey"));
    }

    private static byte[][] associatedData(JsonNode item) {
        List<byte[]> components = new ArrayList<>();
        item.get("associatedDataHex").forEach(c -> components.add(HEX.parseHex(c.asText())));
        return components.toArray(new byte[0][]);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("items")
    void encrypts(String why, JsonNode item) {
        byte[] out = siv().encrypt(TestVectors.hex(item, "plaintextHex"), associatedData(item));
        assertThat(HEX.formatHex(out)).isEqualTo(TestVectors.text(item, "outputHex"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("items")
    void decrypts(String why, JsonNode item) throws AuthenticationFailedException {
        byte[] plaintext = siv().decrypt(TestVectors.hex(item, "outputHex"), associatedData(item));
        assertThat(plaintext).isEqualTo(TestVectors.hex(item, "plaintextHex"));
    }

    @Test
    void allSixItemsArePresent() {
        assertThat(TestVectors.root().get("siv")).hasSize(6);
        assertThat(items().filter(a -> ((JsonNode) a.get()[1]).get("associatedDataHex").isEmpty())).hasSize(2);
    }
}
