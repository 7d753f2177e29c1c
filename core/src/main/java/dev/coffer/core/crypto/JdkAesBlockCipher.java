package dev.coffer.core.crypto;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import org.bouncycastle.crypto.BlockCipher;
import org.bouncycastle.crypto.CipherParameters;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * Bouncy Castle's {@link BlockCipher} backed by the JDK's hardware AES, so that BC's CMac runs at
 * JDK speed (BC's own AESEngine is ~100x slower here). Encryption only: CMAC never decrypts.
 */
final class JdkAesBlockCipher implements BlockCipher {
    private final Cipher cipher;

    JdkAesBlockCipher() {
        try {
            cipher = Cipher.getInstance("AES/ECB/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES/ECB unavailable", e);
        }
    }

    @Override
    public void init(boolean forEncryption, CipherParameters params) {
        if (!forEncryption || !(params instanceof KeyParameter)) {
            throw new IllegalArgumentException("JdkAesBlockCipher only encrypts, with a KeyParameter");
        }
        byte[] key = ((KeyParameter) params).getKey();
        DestroyableKey k = new DestroyableKey(key, 0, key.length, "AES");
        try {
            cipher.init(Cipher.ENCRYPT_MODE, k);
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES key rejected", e);
        } finally {
            k.destroy();
            Bytes.wipe(key);
        }
    }

    @Override
    public String getAlgorithmName() {
        return "AES";
    }

    @Override
    public int getBlockSize() {
        return 16;
    }

    @Override
    public int processBlock(byte[] in, int inOff, byte[] out, int outOff) {
        try {
            return cipher.update(in, inOff, 16, out, outOff);
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES block failed", e);
        }
    }

    @Override
    public void reset() {
        // ECB keeps no state between blocks.
    }
}
