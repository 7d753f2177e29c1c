package dev.coffer.core.crypto;

import java.security.GeneralSecurityException;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;

/** RFC 3394 AES key wrap with the default IV, through the JDK's {@code AES/KW/NoPadding}. */
public final class KeyWrap {
    private KeyWrap() {}

    /** Wraps {@code key} (a multiple of 8 bytes, at least 16) under the AES key {@code kek}. */
    public static byte[] wrap(byte[] kek, byte[] key) {
        DestroyableKey k = new DestroyableKey(kek, 0, kek.length, "AES");
        try {
            Cipher c = Cipher.getInstance("AES/KW/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, k);
            return c.doFinal(key);
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES key wrap failed", e);
        } finally {
            k.destroy();
        }
    }

    /** Unwraps; a wrong KEK or a changed byte fails the RFC 3394 integrity check. */
    public static byte[] unwrap(byte[] kek, byte[] wrapped) throws AuthenticationFailedException {
        if (wrapped.length < 24 || wrapped.length % 8 != 0) {
            throw new AuthenticationFailedException("wrapped key has an impossible length " + wrapped.length);
        }
        DestroyableKey k = new DestroyableKey(kek, 0, kek.length, "AES");
        try {
            Cipher c = Cipher.getInstance("AES/KW/NoPadding");
            c.init(Cipher.DECRYPT_MODE, k);
            return c.doFinal(wrapped);
        } catch (BadPaddingException | IllegalBlockSizeException e) {
            throw new AuthenticationFailedException("key unwrap integrity check failed");
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES key unwrap failed", e);
        } finally {
            k.destroy();
        }
    }
}
