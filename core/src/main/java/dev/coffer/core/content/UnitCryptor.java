package dev.coffer.core.content;

import dev.coffer.core.crypto.AesXts;
import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.crypto.Bytes;
import dev.coffer.core.crypto.CryptoException;
import dev.coffer.core.crypto.DestroyableKey;
import dev.coffer.core.crypto.Hkdf;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.security.auth.Destroyable;

/**
 * Encrypts and decrypts single data units of one file (spec 5.3, 5.4) under the keys derived from
 * its file secret. SIV_XTSHMAC: {@code nonce || XTS(nonce, P) || tag}; SIV_XTS: {@code XTS(LE128(i), P)}.
 * Units under 16 bytes use the tiny keystream. Knows nothing of where units live in a file.
 *
 * <p>Not thread-safe: used by one thread at a time (an open file has one for writes and reads, and
 * spares for reads that run in parallel). Reusable: {@link ContentKeys} keeps a pool of them and
 * {@link #rekey re-keys} one for each file opened, because building the JCE objects anew for every
 * file cost more than reading a small file.
 */
public final class UnitCryptor implements Destroyable {
    public static final int NONCE = 16;
    public static final int TAG = 16;
    private static final byte[] XTS_INFO = "coffer/xts".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SECTOR_INFO = "coffer/sector".getBytes(StandardCharsets.US_ASCII);
    private static final int NONCE_POOL = 64 * NONCE;

    private final boolean authenticated;
    private final AesXts xts;
    private DestroyableKey sectorKey;
    // Not final: destroy() re-keys it with zeros and drops it: it holds the HMAC key's pads.
    private Mac hmac;
    /** Set while the cryptor waits in a pool between files: it refuses use until {@link #rekey}. */
    private boolean idle;
    private final SecureRandom random;
    private final byte[] tweak = new byte[16];
    private final byte[] keystream = new byte[16];
    private final byte[] tagInput = new byte[9];
    /** The full HMAC of the last tag computed; reused so that no unit allocates. */
    private final byte[] mac = new byte[32];
    private final byte[] expectedTag = new byte[TAG];
    private final byte[] nonces = new byte[NONCE_POOL];
    private int noncesUsed = NONCE_POOL;
    private boolean destroyed;

    /** @param authenticated true for SIV_XTSHMAC, false for SIV_XTS */
    public UnitCryptor(byte[] fileSecret, boolean authenticated, SecureRandom random) {
        this.authenticated = authenticated;
        this.random = random;
        byte[] xtsKey = new byte[AesXts.KEY_LENGTH];
        byte[] prk = new byte[32];
        try {
            hmac = Mac.getInstance("HmacSHA256");
            Hkdf.extract(hmac, fileSecret, prk);
            Hkdf.expand(hmac, prk, XTS_INFO, xtsKey, 0, AesXts.KEY_LENGTH);
            xts = new AesXts(xtsKey);
            keySectorMac(prk);
        } catch (GeneralSecurityException e) {
            throw new CryptoException("HmacSHA256 unavailable", e);
        } finally {
            Bytes.wipe(xtsKey, prk);
        }
    }

    /**
     * Makes this cryptor the one of another file (its secret {@code fileSecret}), keeping the JCE
     * objects and scratch buffers: what {@link ContentKeys} does with a pooled cryptor. The previous
     * file's key copies are zeroed; the ciphers' key schedules are overwritten by the new keys.
     */
    void rekey(byte[] fileSecret) {
        if (destroyed) {
            throw new IllegalStateException("file keys destroyed");
        }
        byte[] xtsKey = new byte[AesXts.KEY_LENGTH];
        byte[] prk = new byte[32];
        try {
            Hkdf.extract(hmac, fileSecret, prk);
            Hkdf.expand(hmac, prk, XTS_INFO, xtsKey, 0, AesXts.KEY_LENGTH);
            xts.rekey(xtsKey);
            sectorKey.destroy();
            keySectorMac(prk);
        } finally {
            Bytes.wipe(xtsKey, prk);
        }
        idle = false;
    }

    /**
     * Parks this cryptor between files: it refuses use until {@link #rekey}, and the scratch that held
     * a keystream, tags or (in the XTS scratch) the last unit's cleartext is zeroed. The ciphers keep
     * the last file's key schedule until the next rekey or {@link #destroy} (the JCE only overwrites
     * one by keying again).
     */
    void park() {
        idle = true;
        Bytes.wipe(keystream, tweak, tagInput, mac, expectedTag);
        xts.wipeScratch();
    }

    /** Whether this cryptor is parked in a pool (so handing it back again would be a bug). */
    boolean isParked() {
        return idle;
    }

    /**
     * Derives the sector (HMAC) key from the file secret's HKDF pseudorandom key {@code prk} (the
     * extract step, shared with the XTS key's derivation: both use no salt) and keys {@link #hmac} with it.
     */
    private void keySectorMac(byte[] prk) {
        byte[] macKey = new byte[32];
        try {
            Hkdf.expand(hmac, prk, SECTOR_INFO, macKey, 0, 32);
            sectorKey = new DestroyableKey(macKey, 0, 32, "HmacSHA256");
            hmac.init(sectorKey);
        } catch (GeneralSecurityException e) {
            throw new CryptoException("HmacSHA256 key rejected", e);
        } finally {
            Bytes.wipe(macKey);
        }
    }

    /** A per-file DRBG, seeded from the platform CSPRNG, so that nonces do not contend on one global lock. */
    public static SecureRandom newNonceSource() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }

    public int overhead() {
        return authenticated ? NONCE + TAG : 0;
    }

    /** Encrypts unit {@code index} ({@code len} cleartext bytes) into {@code out}; writes {@code len + overhead()} bytes. */
    public void encrypt(long index, boolean last, byte[] in, int inOff, int len, byte[] out, int outOff) {
        checkAlive();
        if (authenticated) {
            nextNonce(out, outOff);
            crypt(true, out, outOff, in, inOff, len, out, outOff + NONCE);
            tag(index, last, out, outOff, len, out, outOff + NONCE + len);
        } else {
            le128(index);
            crypt(true, tweak, 0, in, inOff, len, out, outOff);
        }
    }

    /**
     * Decrypts stored unit {@code index} of {@code storedLen} bytes into {@code out}. In SIV_XTSHMAC the
     * file's last unit must carry last = 1; any other unit may carry either flag (spec 5.3).
     */
    public void decrypt(long index, boolean last, byte[] in, int inOff, int storedLen, byte[] out, int outOff)
            throws AuthenticationFailedException {
        checkAlive();
        int len = storedLen - overhead();
        if (len <= 0) {
            throw new AuthenticationFailedException("unit " + index + " is too short");
        }
        if (authenticated) {
            verify(index, last, in, inOff, len);
            crypt(false, in, inOff, in, inOff + NONCE, len, out, outOff);
        } else {
            le128(index);
            crypt(false, tweak, 0, in, inOff, len, out, outOff);
        }
    }

    /** Recomputes the tag of a stored SIV_XTSHMAC unit in place, after verifying the old one (spec 5.3). */
    public void retag(long index, boolean wasLast, boolean last, byte[] stored, int off, int storedLen)
            throws AuthenticationFailedException {
        checkAlive();
        int len = storedLen - overhead();
        verify(index, wasLast, stored, off, len);
        tag(index, last, stored, off, len, stored, off + NONCE + len);
    }

    /**
     * Recomputes the tag of a stored SIV_XTSHMAC unit in place for a new last flag, without verifying
     * the old one: only for a unit this cryptor encrypted and the caller kept in memory since (never
     * read back from storage), so there is nothing to verify and nothing foreign gets authenticated.
     */
    public void retagWritten(long index, boolean last, byte[] stored, int off, int storedLen) {
        checkAlive();
        int len = storedLen - overhead();
        if (!authenticated || len <= 0) {
            throw new IllegalArgumentException(authenticated ? "unit " + index + " is too short" : "SIV_XTS units carry no tag");
        }
        tag(index, last, stored, off, len, stored, off + NONCE + len);
    }

    /**
     * Checks the tag of stored SIV_XTSHMAC unit {@code index} of {@code storedLen} bytes without
     * decrypting it (the health check); the flag rules are those of {@link #decrypt}.
     */
    public void authenticate(long index, boolean last, byte[] stored, int off, int storedLen)
            throws AuthenticationFailedException {
        checkAlive();
        int len = storedLen - overhead();
        if (!authenticated || len <= 0) {
            throw new AuthenticationFailedException(authenticated ? "unit " + index + " is too short" : "SIV_XTS units carry no tag");
        }
        verify(index, last, stored, off, len);
    }

    public boolean authenticated() {
        return authenticated;
    }

    private void verify(long index, boolean last, byte[] in, int off, int len) throws AuthenticationFailedException {
        tag(index, last, in, off, len, expectedTag, 0);
        boolean ok = tagEquals(in, off + NONCE + len);
        if (!ok && !last) {
            // A unit that is not the file's last may carry last = 1 after a crash mid-append.
            tag(index, true, in, off, len, expectedTag, 0);
            ok = tagEquals(in, off + NONCE + len);
        }
        if (!ok) {
            throw new AuthenticationFailedException("unit " + index + " failed authentication");
        }
    }

    /** Compares the stored tag at {@code off} with {@link #expectedTag} in constant time, in place. */
    private boolean tagEquals(byte[] stored, int off) {
        int diff = 0;
        for (int i = 0; i < TAG; i++) {
            diff |= stored[off + i] ^ expectedTag[i];
        }
        return diff == 0;
    }

    /** tag = first 16 bytes of HMAC-SHA256(sectorKey, BE64(i) || last || nonce || C). */
    private void tag(long index, boolean last, byte[] unit, int off, int len, byte[] out, int outOff) {
        for (int b = 0; b < 8; b++) {
            tagInput[b] = (byte) (index >>> (56 - 8 * b));
        }
        tagInput[8] = (byte) (last ? 1 : 0);
        hmac.update(tagInput);
        hmac.update(unit, off, NONCE + len);
        try {
            hmac.doFinal(mac, 0);
        } catch (ShortBufferException e) {
            throw new CryptoException("HMAC output buffer too short", e);
        }
        System.arraycopy(mac, 0, out, outOff, TAG);
    }

    /** XTS for units of 16 bytes and more; the tiny keystream (spec 5.4) below that. */
    private void crypt(boolean encrypt, byte[] tw, int twOff, byte[] in, int inOff, int len, byte[] out, int outOff) {
        if (len >= SectorLayout.MIN_XTS) {
            if (encrypt) {
                xts.encrypt(tw, twOff, in, inOff, out, outOff, len);
            } else {
                xts.decrypt(tw, twOff, in, inOff, out, outOff, len);
            }
        } else {
            xts.tinyKeystream(tw, twOff, keystream, 0);
            Bytes.xor(in, inOff, keystream, 0, out, outOff, len);
        }
    }

    private void le128(long index) {
        for (int b = 0; b < 16; b++) {
            tweak[b] = b < 8 ? (byte) (index >>> (8 * b)) : 0;
        }
    }

    private void nextNonce(byte[] out, int off) {
        if (noncesUsed == NONCE_POOL) {
            random.nextBytes(nonces);
            noncesUsed = 0;
        }
        System.arraycopy(nonces, noncesUsed, out, off, NONCE);
        noncesUsed += NONCE;
    }

    private void checkAlive() {
        if (destroyed || idle) {
            throw new IllegalStateException(destroyed ? "file keys destroyed" : "cryptor returned to its pool");
        }
    }

    /**
     * Zeroes the key copies, re-keys the XTS ciphers and the HMAC with all-zero keys (overwriting
     * their schedules and pads as far as the JCE allows) and drops them.
     */
    @Override
    public void destroy() {
        if (destroyed) {
            return;
        }
        destroyed = true;
        xts.destroy();
        sectorKey.destroy();
        DestroyableKey zero = new DestroyableKey(new byte[32], 0, 32, "HmacSHA256");
        try {
            hmac.init(zero);
        } catch (GeneralSecurityException e) {
            // Cannot happen for HmacSHA256; the Mac is dropped either way.
        }
        hmac = null;
        Bytes.wipe(keystream, nonces, tweak, tagInput, mac, expectedTag);
    }

    @Override
    public boolean isDestroyed() {
        return destroyed;
    }
}
