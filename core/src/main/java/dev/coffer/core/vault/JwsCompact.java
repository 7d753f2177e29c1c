package dev.coffer.core.vault;

import dev.coffer.core.crypto.CryptoException;
import dev.coffer.core.crypto.DestroyableKey;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;

/**
 * The three Base64url segments of a JWS compact serialisation (RFC 7515) exactly as stored, and
 * HS256 over them. The signing input is always the stored text, never a re-serialisation.
 *
 * <p>Not responsible for what the header or payload say ({@link VaultConfigJwt}, {@link VaultClaims}).
 *
 * @param header    the first segment, Base64url without padding
 * @param payload   the second segment
 * @param signature the third segment (empty for {@code alg: none})
 */
record JwsCompact(String header, String payload, String signature) {
    /** Parses a stored token, ignoring surrounding ASCII whitespace (spec 2.2). */
    static JwsCompact parse(byte[] stored, String fileName) throws VaultFormatException {
        int start = 0;
        int end = stored.length;
        while (start < end && isAsciiWhitespace(stored[start])) {
            start++;
        }
        while (end > start && isAsciiWhitespace(stored[end - 1])) {
            end--;
        }
        String text = new String(stored, start, end - start, StandardCharsets.ISO_8859_1);
        String[] parts = text.split("\\.", -1);
        if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty()
                || !isBase64Url(parts[0]) || !isBase64Url(parts[1]) || !isBase64Url(parts[2])) {
            throw new VaultFormatException(fileName + ": not a JWS compact token (three Base64url parts joined by dots)");
        }
        return new JwsCompact(parts[0], parts[1], parts[2]);
    }

    /** Signs {@code headerJson} and {@code payloadJson} with HS256. */
    static JwsCompact signHs256(byte[] headerJson, byte[] payloadJson, byte[] key) {
        String h = encode(headerJson);
        String p = encode(payloadJson);
        return new JwsCompact(h, p, encode(hs256(key, (h + "." + p).getBytes(StandardCharsets.US_ASCII))));
    }

    /** True if the stored signature is the HS256 of the stored signing input under {@code key}. */
    boolean verifiesHs256(byte[] key) {
        byte[] expected = hs256(key, signingInput());
        byte[] actual = decodeOrNull(signature);
        try {
            return actual != null && MessageDigest.isEqual(expected, actual);
        } finally {
            Arrays.fill(expected, (byte) 0);
        }
    }

    byte[] signingInput() {
        return (header + "." + payload).getBytes(StandardCharsets.US_ASCII);
    }

    /** The compact form, {@code header.payload.signature}. */
    String compact() {
        return header + "." + payload + "." + signature;
    }

    /** Decodes a segment (the caller says which file and part, for the message). */
    static byte[] decode(String segment, String what) throws VaultFormatException {
        byte[] b = decodeOrNull(segment);
        if (b == null) {
            throw new VaultFormatException(what + " is not valid Base64url");
        }
        return b;
    }

    static String encode(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static byte[] hs256(byte[] key, byte[] data) {
        DestroyableKey k = new DestroyableKey(key, 0, key.length, "HmacSHA256");
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(k);
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new CryptoException("HmacSHA256 unavailable", e);
        } finally {
            k.destroy();
        }
    }

    private static byte[] decodeOrNull(String segment) {
        try {
            return Base64.getUrlDecoder().decode(segment);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static boolean isBase64Url(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAsciiWhitespace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == 0x0B || b == 0x0C;
    }
}
