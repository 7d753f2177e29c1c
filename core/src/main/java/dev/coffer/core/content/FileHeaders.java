package dev.coffer.core.content;

import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.crypto.AuthenticationFailedException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * The 48-byte file header of spec 5.1: a random 32-byte file secret sealed with AES-SIV under the
 * vault's sivKey. Knows nothing of units; {@link UnitCryptor} derives the unit keys from the secret.
 */
public final class FileHeaders {
    public static final int SECRET_LENGTH = 32;
    private static final byte[] HEADER_AD = "coffer/file-header/v1".getBytes(StandardCharsets.US_ASCII);

    private final AesSiv siv;
    private final SecureRandom random;

    public FileHeaders(AesSiv siv, SecureRandom random) {
        this.siv = siv;
        this.random = random;
    }

    /** A fresh random file secret; the caller wipes it. */
    public byte[] newSecret() {
        byte[] secret = new byte[SECRET_LENGTH];
        random.nextBytes(secret);
        return secret;
    }

    /** The 48 header bytes that seal {@code fileSecret}. */
    public byte[] seal(byte[] fileSecret) {
        return siv.encrypt(fileSecret, HEADER_AD);
    }

    /** Opens a stored header; fails if it was damaged or written under another key. */
    public byte[] open(byte[] header) throws AuthenticationFailedException {
        if (header.length != SectorLayout.HEADER) {
            throw new AuthenticationFailedException("file header is " + header.length + " bytes, not 48");
        }
        byte[] secret = siv.decrypt(header, HEADER_AD);
        if (secret.length != SECRET_LENGTH) {
            throw new AuthenticationFailedException("file secret has the wrong length");
        }
        return secret;
    }
}
