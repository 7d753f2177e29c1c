package dev.coffer.core.vault;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads the small JSON documents of the root files (masterkey.coffer, the JWT header and payload)
 * under the rules of spec 2.1: strict UTF-8, one object, duplicate keys refused (at any depth),
 * no trailing content, integer fields only as JSON integers. Unknown fields are simply left in the
 * tree. Every problem becomes a {@link VaultFormatException} prefixed with {@code what}.
 *
 * <p>Not responsible for what a field means; the callers check values.
 */
final class StrictJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    // Duplicates are detected while building the tree, not with Jackson's STRICT_DUPLICATE_DETECTION
    // (left off), so that the message names the key without parsing Jackson's message text.
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(32).maxNumberLength(64).maxStringLength(64 * 1024).build())
            .build();

    private StrictJson() {}

    /** Parses {@code utf8} as one JSON object. */
    static ObjectNode parseObject(byte[] utf8, String what) throws VaultFormatException {
        String text = decodeUtf8(utf8, what);
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken first = p.nextToken();
            if (first != JsonToken.START_OBJECT) {
                throw new VaultFormatException(what + ": not a JSON object");
            }
            ObjectNode root = readObject(p, what);
            if (p.nextToken() != null) {
                throw new VaultFormatException(what + ": malformed JSON (content after the object)");
            }
            return root;
        } catch (VaultFormatException e) {
            throw e;
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + " column " + at.getColumnNr();
            throw new VaultFormatException(what + ": malformed JSON (" + e.getOriginalMessage() + where + ")");
        } catch (IOException e) {
            // A parser over a String performs no I/O.
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The integer value of {@code field}: a JSON integer (no fraction, no exponent, not a boolean)
     * that fits a long.
     */
    static long integer(ObjectNode object, String field, String what) throws VaultFormatException {
        JsonNode n = object.get(field);
        if (n == null) {
            throw new VaultFormatException(what + ": field '" + field + "' missing or not a JSON integer");
        }
        if (!n.isIntegralNumber()) {
            throw new VaultFormatException(what + ": field '" + field + "' = " + shortText(n)
                    + " is not a JSON integer (no fraction, no exponent, not a boolean)");
        }
        if (!n.canConvertToLong()) {
            throw new VaultFormatException(what + ": field '" + field + "' = " + shortText(n) + " is out of range");
        }
        return n.longValue();
    }

    /** The string value of {@code field}, or null if it is missing or not a string. */
    static String textOrNull(ObjectNode object, String field) {
        JsonNode n = object.get(field);
        return n != null && n.isTextual() ? n.textValue() : null;
    }

    /** A value as JSON text, cut to 40 characters, for messages. */
    static String shortText(JsonNode n) {
        String s = n.toString();
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }

    private static String decodeUtf8(byte[] utf8, String what) throws VaultFormatException {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(utf8)).toString();
        } catch (CharacterCodingException e) {
            throw new VaultFormatException(what + ": malformed JSON (not UTF-8)");
        }
    }

    private static ObjectNode readObject(JsonParser p, String what) throws IOException {
        ObjectNode o = NODES.objectNode();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            if (o.has(name)) {
                throw new VaultFormatException(what + ": duplicate key '" + name + "'");
            }
            p.nextToken();
            o.set(name, readValue(p, what));
        }
        return o;
    }

    private static ArrayNode readArray(JsonParser p, String what) throws IOException {
        ArrayNode a = NODES.arrayNode();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            a.add(readValue(p, what));
        }
        return a;
    }

    private static JsonNode readValue(JsonParser p, String what) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT:
                return readObject(p, what);
            case START_ARRAY:
                return readArray(p, what);
            case VALUE_STRING:
                return NODES.textNode(p.getText());
            case VALUE_NUMBER_INT:
                return NODES.numberNode(p.getBigIntegerValue());
            case VALUE_NUMBER_FLOAT:
                // As a double, so that 1.6384e4 reads back as 16384.0 in messages, like the reference.
                return NODES.numberNode(p.getDoubleValue());
            case VALUE_TRUE:
            case VALUE_FALSE:
                return NODES.booleanNode(t == JsonToken.VALUE_TRUE);
            case VALUE_NULL:
                return NODES.nullNode();
            default:
                throw new VaultFormatException(what + ": malformed JSON (unexpected " + t + ")");
        }
    }
}
