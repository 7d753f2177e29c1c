package dev.coffer.core.vault;

import java.io.IOException;

/**
 * Recovery words that do not give this vault's master key (spec 2.4): an unknown word, a wrong
 * number of words, a checksum mismatch, or a key that does not verify the {@code vault.coffer}
 * signature. Messages name word positions, never the words themselves (they are secret).
 */
public class InvalidRecoveryKeyException extends IOException {
    private static final long serialVersionUID = 1L;

    public InvalidRecoveryKeyException(String message) {
        super(message);
    }
}
