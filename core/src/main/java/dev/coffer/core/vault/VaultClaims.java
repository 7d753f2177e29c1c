package dev.coffer.core.vault;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;

/**
 * The JWT payload of {@code vault.coffer} (spec 2.2): reading the claims of a token whose signature
 * has already been verified, with the checks and messages of the format, and writing them compact
 * in the order format, cipherCombo, shorteningThreshold, sectorSize, jti.
 *
 * <p>Not responsible for the signature or the header ({@link VaultConfigJwt}).
 */
final class VaultClaims {
    static final int FORMAT = 1;
    static final int SECTOR_SIZE = 4096;

    private VaultClaims() {}

    /** The claims of {@code payloadJson}; unknown claims are ignored. */
    static VaultConfig read(byte[] payloadJson, String fileName) throws VaultFormatException {
        ObjectNode o = StrictJson.parseObject(payloadJson, fileName + ": payload");
        long format = StrictJson.integer(o, "format", fileName);
        if (format != FORMAT) {
            throw new VaultFormatException(fileName + ": unknown format " + format);
        }
        CipherCombo combo = cipherCombo(o.get("cipherCombo"), fileName);
        long sectorSize = StrictJson.integer(o, "sectorSize", fileName);
        if (sectorSize != SECTOR_SIZE) {
            throw new VaultFormatException(fileName + ": sectorSize " + sectorSize + " (format 1 allows only 4096)");
        }
        long threshold = StrictJson.integer(o, "shorteningThreshold", fileName);
        if (threshold < VaultConfigJwt.MIN_THRESHOLD || threshold > VaultConfigJwt.MAX_THRESHOLD) {
            throw new VaultFormatException(fileName + ": shorteningThreshold " + threshold + " outside 36..220");
        }
        String jti = StrictJson.textOrNull(o, "jti");
        if (jti == null || jti.isEmpty()) {
            throw new VaultFormatException(fileName + ": claim 'jti' missing or not a non-empty string");
        }
        return new VaultConfig(FORMAT, combo, (int) threshold, SECTOR_SIZE, jti);
    }

    /** The payload exactly as Coffer writes it. */
    static byte[] write(VaultConfig c) {
        String jti = new String(JsonStringEncoder.getInstance().quoteAsString(c.jti()));
        String json = "{\"format\":" + c.format()
                + ",\"cipherCombo\":\"" + c.cipherCombo().name()
                + "\",\"shorteningThreshold\":" + c.shorteningThreshold()
                + ",\"sectorSize\":" + c.sectorSize()
                + ",\"jti\":\"" + jti + "\"}";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static CipherCombo cipherCombo(JsonNode n, String fileName) throws VaultFormatException {
        if (n != null && n.isTextual()) {
            for (CipherCombo c : CipherCombo.values()) {
                if (c.name().equals(n.textValue())) {
                    return c;
                }
            }
            throw new VaultFormatException(fileName + ": unknown cipherCombo '" + n.textValue() + "'");
        }
        throw new VaultFormatException(fileName + ": unknown cipherCombo " + (n == null ? "(missing)" : StrictJson.shortText(n)));
    }
}
