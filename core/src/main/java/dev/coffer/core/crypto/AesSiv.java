package dev.coffer.core.crypto;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.security.auth.Destroyable;
import org.bouncycastle.crypto.macs.CMac;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * AES-SIV as in RFC 5297 (deterministic authenticated encryption) with a 512-bit key: the first
 * half keys S2V (AES-CMAC), the second half keys CTR. Output = 16-byte synthetic IV || ciphertext.
 * A 256-bit key (two AES-128 keys) is accepted too, for the RFC's own test vectors; a vault always
 * uses 512 bits.
 *
 * <p>The associated data is a vector of components: zero components and one empty component give
 * different results. Thread-safe (calls are serialised on the instance; each is a few microseconds).
 */
public final class AesSiv implements Destroyable {
    /** The key length a vault uses: two AES-256 keys. */
    public static final int KEY_LENGTH = 64;
    /** Two AES-128 keys, as in RFC 5297's examples. Accepted for testing, never used by a vault. */
    public static final int KEY_LENGTH_256 = 32;
    public static final int IV_LENGTH = 16;
    private static final byte[] ZERO_BLOCK = new byte[16];

    private final DestroyableKey macKey;
    private final DestroyableKey ctrKey;
    // Not final: destroy() drops them, because each holds an expanded AES key schedule that the JCE
    // offers no way to wipe (CMac through JdkAesBlockCipher's Cipher).
    private CMac cmac;
    private Cipher ctr;
    private volatile boolean destroyed;

    /** {@code key} is 64 bytes (what a vault uses) or 32 bytes (AES-SIV-256); it is copied. */
    public AesSiv(byte[] key) {
        if (key.length != KEY_LENGTH && key.length != KEY_LENGTH_256) {
            throw new IllegalArgumentException(
                    "AES-SIV needs a 64-byte (or, for AES-SIV-256, 32-byte) key, got " + key.length);
        }
        int half = key.length / 2;
        macKey = new DestroyableKey(key, 0, half, "AES");
        ctrKey = new DestroyableKey(key, half, half, "AES");
        cmac = new CMac(new JdkAesBlockCipher());
        byte[] mk = macKey.getEncoded();
        try {
            cmac.init(new KeyParameter(mk));
        } finally {
            Bytes.wipe(mk);
        }
        try {
            ctr = Cipher.getInstance("AES/CTR/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES/CTR unavailable", e);
        }
    }

    /** Encrypts {@code plaintext} with the associated-data vector {@code associatedData}. */
    public synchronized byte[] encrypt(byte[] plaintext, byte[]... associatedData) {
        checkAlive();
        byte[] iv = s2v(associatedData, plaintext);
        byte[] out = new byte[IV_LENGTH + plaintext.length];
        System.arraycopy(iv, 0, out, 0, IV_LENGTH);
        ctr(iv, plaintext, 0, plaintext.length, out, IV_LENGTH);
        return out;
    }

    /** Decrypts and verifies; a wrong key, a changed byte or other associated data all fail. */
    public synchronized byte[] decrypt(byte[] ciphertext, byte[]... associatedData) throws AuthenticationFailedException {
        checkAlive();
        if (ciphertext.length < IV_LENGTH) {
            throw new AuthenticationFailedException("SIV ciphertext shorter than its IV");
        }
        byte[] iv = Arrays.copyOf(ciphertext, IV_LENGTH);
        byte[] plaintext = new byte[ciphertext.length - IV_LENGTH];
        ctr(iv, ciphertext, IV_LENGTH, plaintext.length, plaintext, 0);
        byte[] expected = s2v(associatedData, plaintext);
        if (!MessageDigest.isEqual(expected, iv)) {
            Bytes.wipe(plaintext);
            throw new AuthenticationFailedException("SIV authentication failed");
        }
        return plaintext;
    }

    /** RFC 5297 2.4: S2V over the associated-data components followed by the plaintext. */
    private byte[] s2v(byte[][] associatedData, byte[] plaintext) {
        byte[] d = cmac(ZERO_BLOCK, 0, 16);
        for (byte[] component : associatedData) {
            d = dbl(d);
            Bytes.xor(d, 0, cmac(component, 0, component.length), 0, d, 0, 16);
        }
        byte[] t;
        if (plaintext.length >= 16) {
            t = plaintext.clone();
            int off = t.length - 16;
            Bytes.xor(t, off, d, 0, t, off, 16);
        } else {
            t = dbl(d);
            byte[] padded = new byte[16];
            System.arraycopy(plaintext, 0, padded, 0, plaintext.length);
            padded[plaintext.length] = (byte) 0x80;
            Bytes.xor(t, 0, padded, 0, t, 0, 16);
            Bytes.wipe(padded);
        }
        byte[] v = cmac(t, 0, t.length);
        Bytes.wipe(t);
        return v;
    }

    private byte[] cmac(byte[] in, int off, int len) {
        cmac.update(in, off, len);
        byte[] out = new byte[16];
        cmac.doFinal(out, 0);
        return out;
    }

    private void ctr(byte[] iv, byte[] in, int inOff, int len, byte[] out, int outOff) {
        byte[] q = iv.clone();
        q[8] &= 0x7f; // clear bit 63 ...
        q[12] &= 0x7f; // ... and bit 31 (RFC 5297 2.6) so the counter can wrap in 32 or 64 bits
        try {
            ctr.init(Cipher.ENCRYPT_MODE, ctrKey, new IvParameterSpec(q));
            ctr.doFinal(in, inOff, len, out, outOff);
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES/CTR failed", e);
        }
    }

    /** Doubling in GF(2^128), big-endian, as S2V uses it. */
    static byte[] dbl(byte[] in) {
        byte[] out = new byte[16];
        int carry = 0;
        for (int i = 15; i >= 0; i--) {
            int b = in[i] & 0xff;
            out[i] = (byte) ((b << 1) | carry);
            carry = b >>> 7;
        }
        if (carry != 0) {
            out[15] ^= (byte) 0x87;
        }
        return out;
    }

    private void checkAlive() {
        if (destroyed) {
            throw new IllegalStateException("SIV key destroyed");
        }
    }

    /**
     * Zeroes the key copies, re-keys CMAC's and CTR's ciphers with an all-zero key (overwriting their
     * expanded schedules as far as the JCE allows), then drops them.
     */
    @Override
    public synchronized void destroy() {
        if (destroyed) {
            return;
        }
        destroyed = true;
        int half = macKey.getEncodedLength();
        macKey.destroy();
        ctrKey.destroy();
        byte[] zero = new byte[half];
        cmac.init(new KeyParameter(zero)); // JdkAesBlockCipher wipes the copy it is given
        try {
            ctr.init(Cipher.ENCRYPT_MODE, new DestroyableKey(zero, 0, half, "AES"), new IvParameterSpec(new byte[16]));
        } catch (GeneralSecurityException e) {
            // Cannot happen with a valid AES key length; the cipher is dropped either way.
        }
        cmac = null;
        ctr = null;
    }

    @Override
    public boolean isDestroyed() {
        return destroyed;
    }
}
