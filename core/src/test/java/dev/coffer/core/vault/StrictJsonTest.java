package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The JSON rules of spec 2.1: integers, duplicate keys, strict UTF-8, garbage input. */
class StrictJsonTest {
    private static ObjectNode parse(String json) throws VaultFormatException {
        return StrictJson.parseObject(json.getBytes(StandardCharsets.UTF_8), "f");
    }

    private static long integer(String json) throws VaultFormatException {
        return StrictJson.integer(parse(json), "n", "f");
    }

    @Test
    void readsIntegersAndIgnoresUnknownFields() throws Exception {
        assertThat(integer("{\"n\": 16384, \"other\": {\"x\": [1, 2.5, true, null]}}")).isEqualTo(16384);
        assertThat(integer("{\"n\": -3}")).isEqualTo(-3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"16384.0", "1.6384e4", "1e2", "16384E0"})
    void refusesFractionsAndExponents(String value) {
        assertThatThrownBy(() -> integer("{\"n\": " + value + "}"))
                .isInstanceOf(VaultFormatException.class)
                .hasMessageStartingWith("f: field 'n' = ")
                .hasMessageEndingWith(" is not a JSON integer (no fraction, no exponent, not a boolean)");
    }

    @Test
    void messagesShowTheValueLikeTheReference() {
        assertThatThrownBy(() -> integer("{\"n\": 1.6384e4}"))
                .hasMessage("f: field 'n' = 16384.0 is not a JSON integer (no fraction, no exponent, not a boolean)");
        assertThatThrownBy(() -> integer("{\"n\": true}"))
                .hasMessage("f: field 'n' = true is not a JSON integer (no fraction, no exponent, not a boolean)");
        assertThatThrownBy(() -> integer("{\"n\": \"8\"}")).hasMessageContaining("is not a JSON integer");
        assertThatThrownBy(() -> integer("{\"n\": null}")).hasMessageContaining("is not a JSON integer");
        assertThatThrownBy(() -> integer("{\"m\": 1}")).hasMessage("f: field 'n' missing or not a JSON integer");
    }

    @Test
    void hugeNumbersAreRefusedNotWrapped() {
        assertThatThrownBy(() -> integer("{\"n\": 99999999999999999999999}"))
                .hasMessage("f: field 'n' = 99999999999999999999999 is out of range");
        assertThatThrownBy(() -> integer("{\"n\": 1e999}")).hasMessageContaining("is not a JSON integer");
        assertThatThrownBy(() -> integer("{\"n\": " + "9".repeat(5000) + "}"))
                .hasMessageStartingWith("f: malformed JSON (");
    }

    @Test
    void duplicateKeysAreRefusedAtAnyDepth() {
        assertThatThrownBy(() -> parse("{\"version\": 1, \"version\": 1}")).hasMessage("f: duplicate key 'version'");
        assertThatThrownBy(() -> parse("{\"a\": {\"b\": 1, \"b\": 2}}")).hasMessage("f: duplicate key 'b'");
        assertThatThrownBy(() -> parse("{\"a\": [{\"c\": 1, \"c\": 1}]}")).hasMessage("f: duplicate key 'c'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "{", "{\"version\": 1, \"scryptSalt\": ", "{\"a\": 1} {\"b\": 2}", "{\"a\": 1} x",
        "{\"a\": 1,}", "{'a': 1}", "{\"a\": NaN}", "{\"a\": 01}"})
    void malformedJsonIsRefused(String json) {
        assertThatThrownBy(() -> parse(json)).isInstanceOf(VaultFormatException.class).hasMessageStartingWith("f: ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[1, 2]", "1", "\"x\"", "null", "true"})
    void theRootMustBeAnObject(String json) {
        assertThatThrownBy(() -> parse(json)).hasMessage("f: not a JSON object");
    }

    @Test
    void invalidUtf8AndDeepNestingAreRefused() {
        byte[] latin1 = "{\"a\": \"\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> StrictJson.parseObject(latin1, "f")).hasMessage("f: malformed JSON (not UTF-8)");
        String deep = "{\"a\":".repeat(1000) + "1" + "}".repeat(1000);
        assertThatThrownBy(() -> parse(deep)).hasMessageStartingWith("f: malformed JSON (");
    }

    @Test
    void randomBytesOnlyEverGiveVaultFormatException() {
        Random random = new Random(42);
        for (int i = 0; i < 2000; i++) {
            byte[] garbage = new byte[random.nextInt(200)];
            random.nextBytes(garbage);
            if (i % 2 == 0 && garbage.length > 0) {
                garbage[0] = '{';
            }
            try {
                StrictJson.parseObject(garbage, "f");
            } catch (VaultFormatException expected) {
                assertThat(expected.getMessage()).startsWith("f: ");
            }
        }
    }
}
