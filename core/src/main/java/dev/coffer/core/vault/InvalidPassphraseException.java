package dev.coffer.core.vault;

import java.io.IOException;

/**
 * The passphrase does not unwrap the master key (spec 2.1: the RFC 3394 integrity check failed).
 * Always "wrong passphrase"; never used for a damaged or refused configuration
 * ({@link VaultFormatException} covers those).
 */
public class InvalidPassphraseException extends IOException {
    private static final long serialVersionUID = 1L;

    public InvalidPassphraseException() {
        super("wrong passphrase");
    }
}
