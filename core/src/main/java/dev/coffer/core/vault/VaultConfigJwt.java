package dev.coffer.core.vault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.coffer.core.crypto.Bytes;
import dev.coffer.core.crypto.MasterKey;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * {@code vault.coffer} (spec 2.2): the header checks done before any key is used (alg must be
 * HS256, kid must name a plain file in the vault root), the HS256 signature with
 * {@code configKey = HKDF(M, "coffer/config", 32)} (spec 2.3), and the exact token Coffer writes.
 *
 * <p>Not responsible for reading files or unwrapping M ({@link VaultOpener}), nor for the claims'
 * rules ({@link VaultClaims}).
 */
final class VaultConfigJwt {
    static final String FILE_NAME = "vault.coffer";
    static final String KID_PREFIX = "masterkeyfile:";
    static final String CONFIG_KEY_INFO = "coffer/config";
    static final int CONFIG_KEY_LENGTH = 32;
    static final int MIN_THRESHOLD = 36;
    static final int MAX_THRESHOLD = 220;
    private static final String HEADER_JSON =
            "{\"alg\":\"HS256\",\"typ\":\"JWT\",\"kid\":\"masterkeyfile:" + VaultFiles.MASTERKEY + "\"}";
    // One plain file name; ".." anywhere is refused too (README interpretation of "plain file").
    private static final Pattern PLAIN_FILE_NAME = Pattern.compile("[A-Za-z0-9._-]{1,255}");

    private final JwsCompact token;
    private final String masterkeyFileName;

    private VaultConfigJwt(JwsCompact token, String masterkeyFileName) {
        this.token = token;
        this.masterkeyFileName = masterkeyFileName;
    }

    /** Parses the stored token and checks its header, without trusting or using any key. */
    static VaultConfigJwt parse(byte[] stored) throws VaultFormatException {
        JwsCompact token = JwsCompact.parse(stored, FILE_NAME);
        byte[] headerJson = JwsCompact.decode(token.header(), FILE_NAME + ": header");
        ObjectNode header = StrictJson.parseObject(headerJson, FILE_NAME + ": header");
        JsonNode alg = header.get("alg");
        if (alg == null) {
            throw new VaultFormatException(FILE_NAME + ": header has no 'alg'");
        }
        if (!alg.isTextual() || !"HS256".equals(alg.textValue())) {
            String shown = StrictJson.shortText(alg).replace('"', '\'');
            throw new VaultFormatException(FILE_NAME + ": alg " + shown + " is not HS256 - refused");
        }
        return new VaultConfigJwt(token, masterkeyFileName(header.get("kid")));
    }

    /** The token Coffer writes for {@code config}, signed with the configKey of {@code key}. */
    static byte[] write(VaultConfig config, MasterKey key) {
        byte[] configKey = configKey(key);
        try {
            JwsCompact t = JwsCompact.signHs256(
                    HEADER_JSON.getBytes(StandardCharsets.US_ASCII), VaultClaims.write(config), configKey);
            return t.compact().getBytes(StandardCharsets.US_ASCII);
        } finally {
            Bytes.wipe(configKey);
        }
    }

    /** The masterkey file that {@code kid} names, a plain file name in the vault root. */
    String masterkeyFileName() {
        return masterkeyFileName;
    }

    /**
     * The content mode the payload claims, read WITHOUT verifying the signature, or SIV_XTSHMAC if the
     * claims are refused. Only a hint for work that touches no vault data (the JIT warm-up that runs
     * during scrypt, before the key that could verify it exists); everything else uses
     * {@link #verifiedConfig}.
     */
    CipherCombo unverifiedCipherCombo() {
        try {
            return VaultClaims.read(JwsCompact.decode(token.payload(), FILE_NAME + ": payload"), FILE_NAME).cipherCombo();
        } catch (VaultFormatException | RuntimeException e) {
            // A hint must never fail the unlock: the verified claims will report what is wrong.
            return CipherCombo.SIV_XTSHMAC;
        }
    }

    /** The token without surrounding whitespace. */
    String compact() {
        return token.compact();
    }

    /** True if the stored signature verifies under the configKey of {@code key}. */
    boolean isSignedBy(MasterKey key) {
        byte[] configKey = configKey(key);
        try {
            return token.verifiesHs256(configKey);
        } finally {
            Bytes.wipe(configKey);
        }
    }

    /** Verifies the signature, then reads and checks the claims (spec 2.2, in that order). */
    VaultConfig verifiedConfig(MasterKey key) throws VaultFormatException {
        if (!isSignedBy(key)) {
            throw new VaultFormatException(FILE_NAME + ": bad signature - tampered with, or belongs to another key");
        }
        return VaultClaims.read(JwsCompact.decode(token.payload(), FILE_NAME + ": payload"), FILE_NAME);
    }

    private static String masterkeyFileName(JsonNode kid) throws VaultFormatException {
        if (kid == null) {
            throw new VaultFormatException(FILE_NAME + ": header has no 'kid'");
        }
        String shown = StrictJson.shortText(kid).replace('"', '\'');
        if (kid.isTextual() && kid.textValue().startsWith(KID_PREFIX)) {
            String name = kid.textValue().substring(KID_PREFIX.length());
            if (PLAIN_FILE_NAME.matcher(name).matches() && !name.contains("..") && !name.equals(".")) {
                return name;
            }
        }
        throw new VaultFormatException(FILE_NAME + ": kid " + shown + " does not name a plain file in the vault root");
    }

    private static byte[] configKey(MasterKey key) {
        return key.derive(CONFIG_KEY_INFO, CONFIG_KEY_LENGTH);
    }
}
