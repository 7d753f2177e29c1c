package dev.coffer.benchmarks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * A prototype of two changes suggested for {@code dev.coffer.core.crypto.AesXts}, kept here only to
 * measure them (the vault never uses this class): (1) the two XOR passes as plain byte loops, which
 * C2 vectorises (the core's {@code Bytes.xor} reads and writes longs through a VarHandle, which it
 * does not); (2) the tweak masks computed as four interleaved chains stepped by alpha^4, instead of
 * one serial doubling chain. Same algorithm otherwise: mask, one AES/ECB call, mask. Units must be
 * a multiple of 16 bytes (no ciphertext stealing). {@link XtsPartsBenchmark} checks that it gives
 * the core's output.
 */
final class ProposedXts {
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** clmul(c, 0x87) for the four bits shifted out by a multiplication with alpha^4. */
    private static final long[] REDUCE4 = new long[16];

    static {
        for (int c = 0; c < 16; c++) {
            long r = 0;
            for (int k = 0; k < 4; k++) {
                if ((c >>> k & 1) != 0) {
                    r ^= 0x87L << k;
                }
            }
            REDUCE4[c] = r;
        }
    }

    private final Cipher dataEncrypt;
    private final Cipher dataDecrypt;
    private final Cipher tweakEncrypt;
    private final byte[] tweakBlock = new byte[16];
    private byte[] masks = new byte[0];
    private byte[] work = new byte[0];

    ProposedXts(byte[] key) throws GeneralSecurityException {
        dataEncrypt = Cipher.getInstance("AES/ECB/NoPadding");
        dataEncrypt.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, 0, 32, "AES"));
        dataDecrypt = Cipher.getInstance("AES/ECB/NoPadding");
        dataDecrypt.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, 0, 32, "AES"));
        tweakEncrypt = Cipher.getInstance("AES/ECB/NoPadding");
        tweakEncrypt.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, 32, 32, "AES"));
    }

    void encrypt(byte[] tweak, byte[] in, byte[] out, int len) throws GeneralSecurityException {
        crypt(dataEncrypt, tweak, in, out, len);
    }

    void decrypt(byte[] tweak, byte[] in, byte[] out, int len) throws GeneralSecurityException {
        crypt(dataDecrypt, tweak, in, out, len);
    }

    private void crypt(Cipher cipher, byte[] tweak, byte[] in, byte[] out, int len) throws GeneralSecurityException {
        if (len % 16 != 0 || len == 0) {
            throw new IllegalArgumentException("prototype handles whole blocks only");
        }
        if (masks.length < len) {
            masks = new byte[len];
            work = new byte[len];
        }
        tweakEncrypt.update(tweak, 0, 16, tweakBlock, 0);
        fillMasks(len / 16);
        xor(in, masks, work, len);
        cipher.update(work, 0, len, out, 0);
        xor(out, masks, out, len);
    }

    /** masks[j] = T * alpha^j, as four chains j = 4i + r advancing by alpha^4. */
    private void fillMasks(int blocks) {
        long lo0 = (long) LONG_LE.get(tweakBlock, 0);
        long hi0 = (long) LONG_LE.get(tweakBlock, 8);
        long lo1 = (lo0 << 1) ^ ((hi0 >> 63) & 0x87L);
        long hi1 = (hi0 << 1) | (lo0 >>> 63);
        long lo2 = (lo1 << 1) ^ ((hi1 >> 63) & 0x87L);
        long hi2 = (hi1 << 1) | (lo1 >>> 63);
        long lo3 = (lo2 << 1) ^ ((hi2 >> 63) & 0x87L);
        long hi3 = (hi2 << 1) | (lo2 >>> 63);
        byte[] m = masks;
        int j = 0;
        for (; j + 4 <= blocks; j += 4) {
            int o = j * 16;
            LONG_LE.set(m, o, lo0);
            LONG_LE.set(m, o + 8, hi0);
            LONG_LE.set(m, o + 16, lo1);
            LONG_LE.set(m, o + 24, hi1);
            LONG_LE.set(m, o + 32, lo2);
            LONG_LE.set(m, o + 40, hi2);
            LONG_LE.set(m, o + 48, lo3);
            LONG_LE.set(m, o + 56, hi3);
            long t0 = hi0 >>> 60;
            hi0 = (hi0 << 4) | (lo0 >>> 60);
            lo0 = (lo0 << 4) ^ REDUCE4[(int) t0];
            long t1 = hi1 >>> 60;
            hi1 = (hi1 << 4) | (lo1 >>> 60);
            lo1 = (lo1 << 4) ^ REDUCE4[(int) t1];
            long t2 = hi2 >>> 60;
            hi2 = (hi2 << 4) | (lo2 >>> 60);
            lo2 = (lo2 << 4) ^ REDUCE4[(int) t2];
            long t3 = hi3 >>> 60;
            hi3 = (hi3 << 4) | (lo3 >>> 60);
            lo3 = (lo3 << 4) ^ REDUCE4[(int) t3];
        }
        long lo = lo0;
        long hi = hi0;
        for (; j < blocks; j++) {
            LONG_LE.set(m, j * 16, lo);
            LONG_LE.set(m, j * 16 + 8, hi);
            long carry = hi >> 63;
            hi = (hi << 1) | (lo >>> 63);
            lo = (lo << 1) ^ (carry & 0x87L);
        }
    }

    /** A plain byte loop: C2 turns it into vector XORs. */
    private static void xor(byte[] a, byte[] b, byte[] out, int len) {
        for (int i = 0; i < len; i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
    }
}
