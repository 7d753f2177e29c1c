package dev.coffer.core.vault;

import java.io.IOException;

/**
 * A folder that is not a vault, a damaged root file, or a configuration that the format refuses
 * (spec 2.1, 2.2). The message names the file and the problem, e.g.
 * {@code masterkey.coffer: scryptSalt is 4 bytes (8 to 64 allowed)}. Never means a wrong passphrase.
 */
public class VaultFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    public VaultFormatException(String message) {
        super(message);
    }
}
