package dev.coffer.core.crypto;

/** Raised when an authenticated ciphertext (SIV, HMAC tag, key wrap) does not verify. Carries no secret. */
public final class AuthenticationFailedException extends Exception {
    private static final long serialVersionUID = 1L;

    public AuthenticationFailedException(String message) {
        super(message);
    }
}
