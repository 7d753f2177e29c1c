package dev.coffer.core.vault;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.crypto.Bytes;
import dev.coffer.core.crypto.KeyWrap;
import dev.coffer.core.crypto.MasterKey;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * One masterkey file (spec 2.1): parsing with every check done before scrypt could allocate,
 * unwrapping M with a passphrase, wrapping M into a new file, and the exact text Coffer writes.
 *
 * <p>Not responsible for reading or writing the file on disk, nor for backups ({@link VaultFiles},
 * {@link MasterkeyReplacer}).
 */
final class MasterkeyFile {
    static final int VERSION = 1;
    static final int NEW_SALT_LENGTH = 16;
    static final int WRAPPED_LENGTH = MasterKey.LENGTH + 8;

    private final byte[] salt;
    private final ScryptParams params;
    private final byte[] wrappedKey;

    private MasterkeyFile(byte[] salt, ScryptParams params, byte[] wrappedKey) {
        this.salt = salt;
        this.params = params;
        this.wrappedKey = wrappedKey;
    }

    /** Parses and validates {@code bytes}; {@code fileName} prefixes every message. */
    static MasterkeyFile parse(byte[] bytes, String fileName) throws VaultFormatException {
        ObjectNode o = StrictJson.parseObject(bytes, fileName);
        long version = StrictJson.integer(o, "version", fileName);
        if (version != VERSION) {
            throw new VaultFormatException(fileName + ": unknown version " + version);
        }
        ScryptParams params = new ScryptParams(
                StrictJson.integer(o, "scryptCostParam", fileName),
                StrictJson.integer(o, "scryptBlockSize", fileName),
                StrictJson.integer(o, "scryptParallelism", fileName));
        byte[] salt = base64(o, "scryptSalt", fileName);
        byte[] wrapped = base64(o, "masterKey", fileName);
        params.validate(fileName);
        if (salt.length < 8 || salt.length > 64) {
            throw new VaultFormatException(fileName + ": scryptSalt is " + salt.length + " bytes (8 to 64 allowed)");
        }
        if (wrapped.length != WRAPPED_LENGTH) {
            throw new VaultFormatException(fileName + ": masterKey is " + wrapped.length
                    + " bytes, a wrapped 64-byte key is 72");
        }
        return new MasterkeyFile(salt, params, wrapped);
    }

    /** Wraps {@code key} under {@code passphraseUtf8} with a fresh salt. */
    static MasterkeyFile wrap(MasterKey key, byte[] passphraseUtf8, ScryptParams params, SecureRandom random, Kdf kdf) {
        byte[] salt = new byte[NEW_SALT_LENGTH];
        random.nextBytes(salt);
        byte[] kek = null;
        byte[] m = null;
        try {
            kek = kdf.kek(passphraseUtf8, salt, params);
            m = key.copyBytes();
            return new MasterkeyFile(salt, params, KeyWrap.wrap(kek, m));
        } finally {
            Bytes.wipe(kek, m);
        }
    }

    /** Unwraps M; a wrong passphrase fails the RFC 3394 integrity check. */
    MasterKey unwrap(byte[] passphraseUtf8, Kdf kdf) throws InvalidPassphraseException {
        byte[] kek = null;
        byte[] m = null;
        try {
            kek = kdf.kek(passphraseUtf8, salt, params);
            m = KeyWrap.unwrap(kek, wrappedKey);
            return MasterKey.of(m);
        } catch (AuthenticationFailedException e) {
            throw new InvalidPassphraseException();
        } finally {
            Bytes.wipe(kek, m);
        }
    }

    ScryptParams params() {
        return params;
    }

    /** The file as Coffer writes it: pretty JSON in the field order of spec 2.1, a final line break. */
    byte[] toBytes() {
        Base64.Encoder b64 = Base64.getEncoder();
        String text = "{\n"
                + "  \"version\": " + VERSION + ",\n"
                + "  \"scryptSalt\": \"" + b64.encodeToString(salt) + "\",\n"
                + "  \"scryptCostParam\": " + params.n() + ",\n"
                + "  \"scryptBlockSize\": " + params.r() + ",\n"
                + "  \"scryptParallelism\": " + params.p() + ",\n"
                + "  \"masterKey\": \"" + b64.encodeToString(wrappedKey) + "\"\n"
                + "}\n";
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] base64(ObjectNode o, String field, String fileName) throws VaultFormatException {
        String text = StrictJson.textOrNull(o, field);
        if (text != null) {
            try {
                return Base64.getDecoder().decode(text);
            } catch (IllegalArgumentException e) {
                // reported below, like a missing field
            }
        }
        throw new VaultFormatException(fileName + ": field '" + field + "' missing or not a Base64 string");
    }
}
