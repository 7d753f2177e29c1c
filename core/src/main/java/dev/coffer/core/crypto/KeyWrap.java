package dev.coffer.core.crypto;

import java.security.GeneralSecurityException;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;

/** RFC 3394 AES key wrap with the default IV, through the JDK's {@code AES/KW/NoPadding}. */
public final class KeyWrap {
    private KeyWrap() {}

    /**
     * Wraps {@code key} (a multiple of 8 bytes, at least 16) under the AES key {@code kek} (16, 24 or
     * 32 bytes); other lengths are {@link IllegalArgumentException}s.
     */
    public static byte[] wrap(byte[] kek, byte[] key) {
        checkKek(kek);
        if (key.length < 16 || key.length % 8 != 0) {
            throw new IllegalArgumentException(
                    "RFC 3394 wraps a multiple of 8 bytes, at least 16; got " + key.length);
        }
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

    /**
     * Unwraps; a wrong KEK, a changed byte or an impossible length fails the RFC 3394 integrity check.
     * A KEK that is not 16, 24 or 32 bytes is an {@link IllegalArgumentException}.
     */
    public static byte[] unwrap(byte[] kek, byte[] wrapped) throws AuthenticationFailedException {
        checkKek(kek);
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

    /** A KEK of the wrong size is a programming error, not a crypto failure and not a wrong passphrase. */
    private static void checkKek(byte[] kek) {
        if (kek.length != 16 && kek.length != 24 && kek.length != 32) {
            throw new IllegalArgumentException("an AES KEK is 16, 24 or 32 bytes, got " + kek.length);
        }
    }
}
