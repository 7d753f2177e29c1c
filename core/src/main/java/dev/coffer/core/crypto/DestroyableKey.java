package dev.coffer.core.crypto;

import java.util.Arrays;
import javax.crypto.SecretKey;

/**
 * An AES or HMAC key whose bytes this class owns and zeroes on {@link #destroy()}.
 *
 * <p>{@code SecretKeySpec} cannot be destroyed on JDK 17; this one can. The JCE copies the bytes
 * into its own expanded key schedule when a cipher is initialised; those copies are beyond our
 * reach and die with the cipher objects, which the owners drop on lock.
 */
public final class DestroyableKey implements SecretKey {
    private static final long serialVersionUID = 1L;

    private final byte[] key;
    private final String algorithm;
    private volatile boolean destroyed;

    /** Copies {@code len} bytes of {@code source} from {@code offset}. */
    public DestroyableKey(byte[] source, int offset, int len, String algorithm) {
        this.key = Arrays.copyOfRange(source, offset, offset + len);
        this.algorithm = algorithm;
    }

    @Override
    public String getAlgorithm() {
        return algorithm;
    }

    @Override
    public String getFormat() {
        return "RAW";
    }

    /** A fresh copy; the caller wipes it. */
    @Override
    public byte[] getEncoded() {
        if (destroyed) {
            throw new IllegalStateException("key destroyed");
        }
        return key.clone();
    }

    /** The key's length in bytes (also after destruction). */
    public int getEncodedLength() {
        return key.length;
    }

    @Override
    public void destroy() {
        Arrays.fill(key, (byte) 0);
        destroyed = true;
    }

    @Override
    public boolean isDestroyed() {
        return destroyed;
    }

    /** For tests that prove no key bytes survive a lock. */
    boolean allBytesZero() {
        for (byte b : key) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }
}
