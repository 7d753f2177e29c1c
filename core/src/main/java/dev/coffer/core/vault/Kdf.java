package dev.coffer.core.vault;

import dev.coffer.core.crypto.Scrypt;

/**
 * Turns the passphrase bytes into the 32-byte KEK of spec 2.1. An interface only so that tests can
 * prove that refused parameters never reach scrypt; production code uses {@link #SCRYPT}.
 */
@FunctionalInterface
interface Kdf {
    int KEK_LENGTH = 32;

    /** scrypt as spec 2.1 defines the KEK. */
    Kdf SCRYPT = (passphrase, salt, params) ->
            Scrypt.derive(passphrase, salt, params.nInt(), params.rInt(), params.pInt(), KEK_LENGTH);

    /** The KEK; the caller wipes it. {@code params} have been validated. */
    byte[] kek(byte[] passphraseUtf8, byte[] salt, ScryptParams params);
}
