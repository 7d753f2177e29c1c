package dev.coffer.core.crypto;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;

/** HKDF-SHA256 (RFC 5869). Coffer uses it with no salt (HashLen zero bytes) and one info label per key. */
public final class Hkdf {
    private static final int HASH_LEN = 32;

    private Hkdf() {}

    /** HKDF with no salt, as every Coffer key derivation uses it. */
    public static byte[] sha256(byte[] ikm, byte[] info, int length) {
        return sha256(ikm, null, info, length);
    }

    /** Full RFC 5869 HKDF-SHA256; a null or empty salt means HashLen zero bytes. */
    public static byte[] sha256(byte[] ikm, byte[] salt, byte[] info, int length) {
        if (length < 0 || length > 255 * HASH_LEN) {
            throw new IllegalArgumentException("HKDF-SHA256 output length " + length + " out of range");
        }
        byte[] effectiveSalt = salt == null || salt.length == 0 ? new byte[HASH_LEN] : salt;
        byte[] prk = hmac(effectiveSalt, ikm);
        try {
            byte[] okm = new byte[length];
            byte[] t = new byte[0];
            int done = 0;
            for (int counter = 1; done < length; counter++) {
                Mac mac = mac(prk);
                mac.update(t);
                mac.update(info);
                mac.update((byte) counter);
                Bytes.wipe(t);
                t = mac.doFinal();
                int n = Math.min(HASH_LEN, length - done);
                System.arraycopy(t, 0, okm, done, n);
                done += n;
            }
            Bytes.wipe(t);
            return okm;
        } finally {
            Bytes.wipe(prk);
        }
    }

    /**
     * HKDF's extract step with no salt: {@code prk = HMAC(zeros, ikm)}, 32 bytes, computed with
     * {@code mac} (an HmacSHA256 instance the caller owns and re-keys afterwards: looking up a new Mac
     * for every step costs more than the HMACs themselves when a file is opened). Several keys derived
     * from one secret with different infos share it: extract once, then {@link #expand} per key; the
     * result equals {@link #sha256(byte[], byte[], int)}'s.
     */
    public static void extract(Mac mac, byte[] ikm, byte[] prk) {
        if (prk.length != HASH_LEN) {
            throw new IllegalArgumentException("a PRK is " + HASH_LEN + " bytes, not " + prk.length);
        }
        initMac(mac, new byte[HASH_LEN]);
        mac.update(ikm);
        try {
            mac.doFinal(prk, 0);
        } catch (javax.crypto.ShortBufferException e) {
            throw new CryptoException("HMAC output buffer too short", e);
        }
    }

    /** HKDF's expand step: {@code length} bytes of output keying material for {@code info} from {@code prk}. */
    public static void expand(Mac mac, byte[] prk, byte[] info, byte[] out, int off, int length) {
        checkLength(length);
        byte[] block = new byte[HASH_LEN];
        try {
            initMac(mac, prk);
            int done = 0;
            for (int counter = 1; done < length; counter++) {
                if (counter > 1) {
                    mac.update(block); // T(counter - 1)
                }
                mac.update(info);
                mac.update((byte) counter);
                mac.doFinal(block, 0);
                int n = Math.min(HASH_LEN, length - done);
                System.arraycopy(block, 0, out, off + done, n);
                done += n;
            }
        } catch (javax.crypto.ShortBufferException e) {
            throw new CryptoException("HMAC output buffer too short", e);
        } finally {
            Bytes.wipe(block);
        }
    }

    private static void checkLength(int length) {
        if (length < 0 || length > 255 * HASH_LEN) {
            throw new IllegalArgumentException("HKDF-SHA256 output length " + length + " out of range");
        }
    }

    /** Keys {@code mac} with a copy of {@code key}; the copy the key object holds is zeroed at once. */
    private static void initMac(Mac mac, byte[] key) {
        DestroyableKey k = new DestroyableKey(key, 0, key.length, "HmacSHA256");
        try {
            mac.init(k);
        } catch (GeneralSecurityException e) {
            throw new CryptoException("HmacSHA256 key rejected", e);
        } finally {
            k.destroy();
        }
    }

    static byte[] hmac(byte[] key, byte[] data) {
        return mac(key).doFinal(data);
    }

    private static Mac mac(byte[] key) {
        DestroyableKey k = new DestroyableKey(key, 0, key.length, "HmacSHA256");
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(k);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new CryptoException("HmacSHA256 unavailable", e);
        } finally {
            k.destroy();
        }
    }
}
