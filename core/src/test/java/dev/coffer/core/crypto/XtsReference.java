package dev.coffer.core.crypto;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * A deliberately naive XTS-AES (IEEE 1619-2007 section 5.3), one block at a time with a byte-wise
 * multiplication by alpha, to cross-check {@link AesXts}'s batched implementation on unit sizes the
 * published vectors do not cover. Test code only: slow and not constant-time.
 */
final class XtsReference {
    private XtsReference() {}

    static byte[] crypt(boolean encrypt, byte[] key, byte[] tweak, byte[] in) {
        int half = key.length / 2;
        try {
            Cipher data = Cipher.getInstance("AES/ECB/NoPadding");
            data.init(encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, new SecretKeySpec(key, 0, half, "AES"));
            Cipher tweakCipher = Cipher.getInstance("AES/ECB/NoPadding");
            tweakCipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, half, half, "AES"));
            byte[] t = tweakCipher.doFinal(tweak);
            int m = in.length / 16;
            int tail = in.length % 16;
            byte[] out = new byte[in.length];
            byte[][] masks = new byte[m + 1][];
            for (int j = 0; j <= m; j++) {
                masks[j] = t.clone();
                t = timesAlpha(t);
            }
            int whole = tail == 0 ? m : m - 1;
            for (int j = 0; j < whole; j++) {
                System.arraycopy(block(data, in, j * 16, masks[j]), 0, out, j * 16, 16);
            }
            if (tail != 0) {
                int k = (m - 1) * 16;
                // Encryption uses mask m-1 then m; decryption m then m-1.
                byte[] first = block(data, in, k, encrypt ? masks[m - 1] : masks[m]);
                byte[] last = first.clone();
                System.arraycopy(in, k + 16, last, 0, tail);
                byte[] second = block(data, last, 0, encrypt ? masks[m] : masks[m - 1]);
                System.arraycopy(second, 0, out, k, 16);
                System.arraycopy(first, 0, out, k + 16, tail);
            }
            return out;
        } catch (GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] block(Cipher c, byte[] in, int off, byte[] mask) throws GeneralSecurityException {
        byte[] x = new byte[16];
        for (int i = 0; i < 16; i++) {
            x[i] = (byte) (in[off + i] ^ mask[i]);
        }
        byte[] y = c.doFinal(x);
        for (int i = 0; i < 16; i++) {
            y[i] ^= mask[i];
        }
        return y;
    }

    /** Multiplication by alpha in GF(2^128), the 16 bytes read as a little-endian number. */
    private static byte[] timesAlpha(byte[] t) {
        byte[] r = new byte[16];
        int carry = 0;
        for (int i = 0; i < 16; i++) {
            int b = t[i] & 0xff;
            r[i] = (byte) ((b << 1) | carry);
            carry = b >>> 7;
        }
        if (carry != 0) {
            r[0] ^= (byte) 0x87;
        }
        return r;
    }
}
