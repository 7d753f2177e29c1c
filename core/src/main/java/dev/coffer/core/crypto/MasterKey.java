package dev.coffer.core.crypto;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.security.auth.Destroyable;

/**
 * The vault's 64-byte master key M (spec 2.3). Every working key is derived from it with HKDF; it
 * never changes for the life of the vault. Zeroed on {@link #destroy()}.
 */
public final class MasterKey implements Destroyable {
    public static final int LENGTH = 64;

    private final byte[] key;
    private volatile boolean destroyed;

    private MasterKey(byte[] key) {
        this.key = key;
    }

    /** A fresh master key from the platform CSPRNG. */
    public static MasterKey generate(SecureRandom random) {
        byte[] k = new byte[LENGTH];
        random.nextBytes(k);
        return new MasterKey(k);
    }

    /** Copies {@code bytes} (64 bytes); the caller wipes its own array. */
    public static MasterKey of(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("master key must be 64 bytes, got " + bytes.length);
        }
        return new MasterKey(bytes.clone());
    }

    /** A copy of M, for wrapping or the recovery key; the caller wipes it. */
    public byte[] copyBytes() {
        checkAlive();
        return key.clone();
    }

    /** HKDF-SHA256(M, no salt, info, length): one key per label (spec 2.3). The caller wipes it. */
    public byte[] derive(String info, int length) {
        checkAlive();
        return Hkdf.sha256(key, info.getBytes(StandardCharsets.US_ASCII), length);
    }

    /**
     * True if {@code other} holds the same bytes (constant time). Both keys must be alive: two
     * destroyed (all-zero) keys are not "the same vault key".
     */
    public boolean sameKeyAs(MasterKey other) {
        checkAlive();
        other.checkAlive();
        return java.security.MessageDigest.isEqual(key, other.key);
    }

    private void checkAlive() {
        if (destroyed) {
            throw new IllegalStateException("master key destroyed");
        }
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
