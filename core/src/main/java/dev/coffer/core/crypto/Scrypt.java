package dev.coffer.core.crypto;

import org.bouncycastle.crypto.generators.SCrypt;

/**
 * scrypt (RFC 7914) through Bouncy Castle. Parameter policy (which N, r, p a vault may ask for)
 * belongs to the masterkey file reader, which checks it before calling here.
 */
public final class Scrypt {
    private Scrypt() {}

    public static byte[] derive(byte[] password, byte[] salt, int n, int r, int p, int dkLen) {
        return SCrypt.generate(password, salt, n, r, p, dkLen);
    }
}
