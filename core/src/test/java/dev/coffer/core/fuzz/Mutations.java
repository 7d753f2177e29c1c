package dev.coffer.core.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Generators of hostile input for the fuzz tests: random garbage, and structured mutations of a
 * valid input (bit flips, overwritten, inserted and deleted bytes, truncation, duplication,
 * malformed UTF-8, oversized padding) so that inputs get past the first checks; and JSON objects
 * whose fields take wrong types, huge numbers, deep nesting, oversized or invalid strings.
 *
 * <p>Byte mutations are driven by one generated {@code long}: a failure report shows it, and the
 * same long gives the same input again. Not responsible for running the code under test
 * ({@link CleanFailure}).
 */
public final class Mutations {
    private static final byte[][] BAD_UTF8 = {
        {(byte) 0xC0, (byte) 0x80}, {(byte) 0xFF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, 0, 0},
        {(byte) 0xE2, (byte) 0x82}, {(byte) 0x80}, {0}, {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
    };

    private Mutations() {}

    /** Random bytes of any length up to {@code maxLength}. */
    public static Arbitrary<byte[]> garbage(int maxLength) {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(maxLength);
    }

    /** Mostly mutations of {@code valid}, sometimes the input itself or garbage. */
    public static Arbitrary<byte[]> around(byte[] valid) {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, Arbitraries.just(valid.clone())),
                net.jqwik.api.Tuple.of(2, garbage(Math.max(64, valid.length * 2))),
                net.jqwik.api.Tuple.of(12, mutantsOf(valid)));
    }

    /** One to eight random mutations of {@code valid}. */
    public static Arbitrary<byte[]> mutantsOf(byte[] valid) {
        byte[] seed = valid.clone();
        return Arbitraries.longs().map(s -> mutate(seed, new Random(s)));
    }

    /** Same as {@link #around} for text (mutated as UTF-8 bytes, decoded leniently). */
    public static Arbitrary<String> aroundText(String valid) {
        return around(valid.getBytes(StandardCharsets.UTF_8)).map(b -> new String(b, StandardCharsets.UTF_8));
    }

    /** One to eight mutations of {@code seed}, chosen by {@code r}. */
    public static byte[] mutate(byte[] seed, Random r) {
        byte[] b = seed.clone();
        int ops = 1 + r.nextInt(8);
        for (int i = 0; i < ops; i++) {
            b = mutateOnce(b, r);
        }
        return b;
    }

    private static byte[] mutateOnce(byte[] b, Random r) {
        int pos = b.length == 0 ? 0 : r.nextInt(b.length);
        switch (r.nextInt(9)) {
            case 0: // flip one bit
                if (b.length > 0) {
                    b[pos] ^= (byte) (1 << r.nextInt(8));
                }
                return b;
            case 1: // overwrite a byte
                if (b.length > 0) {
                    b[pos] = (byte) r.nextInt(256);
                }
                return b;
            case 2: // truncate
                return Arrays.copyOf(b, pos);
            case 3: { // insert random bytes
                byte[] ins = new byte[1 + r.nextInt(64)];
                r.nextBytes(ins);
                return splice(b, pos, 0, ins);
            }
            case 4: // delete a range
                return splice(b, pos, Math.min(b.length - pos, 1 + r.nextInt(16)), new byte[0]);
            case 5: { // duplicate a range
                int len = Math.min(b.length - pos, 1 + r.nextInt(64));
                return splice(b, pos, 0, Arrays.copyOfRange(b, pos, pos + len));
            }
            case 6: // malformed UTF-8
                return splice(b, pos, 0, BAD_UTF8[r.nextInt(BAD_UTF8.length)]);
            case 7: { // oversized: repeat a byte many times
                byte[] pad = new byte[1 + r.nextInt(80_000)];
                Arrays.fill(pad, b.length == 0 ? (byte) 'A' : b[pos]);
                return splice(b, pos, 0, pad);
            }
            default: { // swap two ranges (reordering)
                if (b.length < 2) {
                    return b;
                }
                int other = r.nextInt(b.length);
                int len = Math.min(Math.min(b.length - pos, b.length - other), 1 + r.nextInt(32));
                byte[] tmp = Arrays.copyOfRange(b, pos, pos + len);
                System.arraycopy(b, other, b, pos, len);
                System.arraycopy(tmp, 0, b, other, len);
                return b;
            }
        }
    }

    private static byte[] splice(byte[] b, int pos, int remove, byte[] insert) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + insert.length);
        out.write(b, 0, pos);
        out.write(insert, 0, insert.length);
        out.write(b, pos + remove, b.length - pos - remove);
        return out.toByteArray();
    }

    /**
     * JSON text for one field value: the valid literal most of the time, otherwise a wrong type, a
     * huge or negative number, a fraction or exponent, deep nesting, an oversized or control-filled
     * string, or invalid Base64.
     */
    public static Arbitrary<String> jsonValue(String validLiteral) {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.just(validLiteral)),
                net.jqwik.api.Tuple.of(1, Arbitraries.of("null", "true", "false", "[]", "{}", "\"\"", "0", "-1", "1.0",
                        "1e4", "16384.0", "1.6384e4", "-0", "9223372036854775807", "9223372036854775808",
                        "-9223372036854775809", "18446744073709551616", "1e400", "4611686018427387904",
                        "2147483648", "4294967296", "\"16384\"", "\"AAAA\"", "\"====\"", "\"A\"", "\"AA=A\"",
                        "\"\\u0000\"", "\"\\ud800\"", "[1,2,3]", "{\"a\":1}", "{\"a\":1,\"a\":2}", "NaN", "Infinity",
                        "\"" + "A".repeat(70_000) + "\"", "1" + "0".repeat(200), "0x4000", "01", "+1")),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(1, 3000).map(d -> "[".repeat(d) + "]".repeat(d))),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(1, 3000).map(d -> "{\"x\":".repeat(d) + "1" + "}".repeat(d))),
                net.jqwik.api.Tuple.of(1, Arbitraries.longs().map(l -> Long.toString(l))),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0, 62).map(e -> Long.toString(1L << e))),
                net.jqwik.api.Tuple.of(1, Arbitraries.strings().ofMaxLength(200).map(Mutations::jsonString)));
    }

    /** {@code s} as a JSON string literal. */
    public static String jsonString(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    /**
     * A JSON object with the given fields (name to valid literal): each value varied by
     * {@link #jsonValue}, some fields dropped or duplicated, an unknown field added, and the
     * text then sometimes mutated as bytes.
     */
    public static Arbitrary<byte[]> jsonObject(Map<String, String> validFields) {
        List<String> names = new ArrayList<>(validFields.keySet());
        List<Arbitrary<String>> values = new ArrayList<>();
        for (String n : names) {
            values.add(jsonValue(validFields.get(n)));
        }
        Arbitrary<List<String>> allValues = Combinators.combine(values).as(l -> l);
        Arbitrary<Long> shape = Arbitraries.longs();
        Arbitrary<byte[]> text = Combinators.combine(allValues, shape).as((vals, s) -> {
            Random r = new Random(s);
            Map<String, String> fields = new LinkedHashMap<>();
            StringBuilder sb = new StringBuilder("{");
            for (int i = 0; i < names.size(); i++) {
                if (r.nextInt(12) == 0) {
                    continue; // missing field
                }
                fields.put(names.get(i), vals.get(i));
            }
            boolean first = true;
            for (Map.Entry<String, String> f : fields.entrySet()) {
                sb.append(first ? "" : ",").append(jsonString(f.getKey())).append(':').append(f.getValue());
                first = false;
                if (r.nextInt(25) == 0) {
                    sb.append(',').append(jsonString(f.getKey())).append(':').append(f.getValue()); // duplicate key
                }
            }
            if (r.nextInt(6) == 0) {
                sb.append(first ? "" : ",").append("\"unknown\":{\"nested\":[1,\"x\",null]}");
            }
            sb.append('}');
            if (r.nextInt(15) == 0) {
                sb.append(r.nextBoolean() ? " {}" : "garbage");
            }
            byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
            return r.nextInt(4) == 0 ? mutate(bytes, r) : bytes;
        });
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(10, text),
                net.jqwik.api.Tuple.of(1, garbage(512)),
                net.jqwik.api.Tuple.of(1, Arbitraries.of("", "[]", "null", "\"x\"", "{", "}", "{}", "{\"version\":1}{}",
                        "\uFEFF{}", "{\"a\":" + "[".repeat(100_000)).map(s -> s.getBytes(StandardCharsets.UTF_8))));
    }
}
