package dev.coffer.core.crypto;

/** A failure of the platform's crypto that cannot happen on a conforming JDK (missing AES, bad key size). */
public final class CryptoException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CryptoException(String message, Throwable cause) {
        super(message, cause);
    }
}
