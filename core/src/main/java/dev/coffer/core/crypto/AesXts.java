package dev.coffer.core.crypto;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.security.auth.Destroyable;

/**
 * XTS-AES-256 (IEEE 1619-2007, NIST SP 800-38E) with ciphertext stealing, for one data unit at a time.
 * A vault always uses a 64-byte key (XTS-AES-256); a 32-byte key (XTS-AES-128) is accepted too, so the
 * implementation can be checked against the standard's XTS-AES-128 vectors.
 *
 * <p>Speed: the tweak masks of a whole unit are computed first (GF(2^128) doubling on two longs),
 * then the unit goes through the JDK's hardware AES in one call, between two XOR passes. Never a
 * block-at-a-time cipher loop. Encryption uses {@code AES/ECB/NoPadding}. Decryption uses
 * {@code AES/CBC/NoPadding} and undoes the chaining in its second XOR pass (CBC's output block i is
 * {@code D(Y_i) ^ Y_(i-1)}): the JDK compiles CBC decryption to a stub that decrypts several blocks
 * at once on any CPU with AES-NI, while its ECB stub needs AVX-512 and otherwise calls AES once per
 * 16-byte block (3.7x slower per 4 KiB unit on an AVX2 host).
 *
 * <p>Not thread-safe: an instance owns its cipher objects and scratch buffers. Callers confine an
 * instance to one thread at a time (the content layer keeps one per open file under its lock).
 */
public final class AesXts implements Destroyable {
    /** The key length a vault uses: K1 || K2, two AES-256 keys. */
    public static final int KEY_LENGTH = 64;
    /** XTS-AES-128: K1 || K2, two AES-128 keys. Accepted for the IEEE 1619 vectors, never used by a vault. */
    public static final int KEY_LENGTH_128 = 32;
    public static final int BLOCK = 16;
    private static final int INITIAL_SCRATCH = 4096 + 32;

    private DestroyableKey dataKey;
    private DestroyableKey tweakKey;
    // Not final: destroy() re-keys them with zeros and drops them. Each holds its own copy of the
    // expanded AES key schedule, which the JCE offers no other way to overwrite.
    private Cipher dataEncrypt;
    /** AES/CBC decryption with the data key, for every block decrypted (see the class comment). */
    private Cipher dataDecryptChained;
    private Cipher tweakEncrypt;
    /**
     * Whether each data cipher holds the current key: they are keyed on first use, because a file
     * that is only read never needs the encrypting one, and each key expansion costs as much as
     * decrypting a small unit.
     */
    private boolean dataEncryptKeyed;
    private boolean dataDecryptChainedKeyed;
    /**
     * The chaining block {@link #dataDecryptChained} holds: zeros once keyed (its IV), then the last input
     * block of its previous call, which CBC XORs into the next call's first output block.
     */
    private final byte[] chain = new byte[BLOCK];
    /** One block's CBC output, before the chaining block is XORed out of it. */
    private final byte[] chainedBlock = new byte[BLOCK];
    private final byte[] tweakBlock = new byte[BLOCK];
    /** Ciphertext stealing: the last 16 + tail input bytes, then the padded partial block. */
    private final byte[] stealIn = new byte[2 * BLOCK];
    private final byte[] stealBlock = new byte[BLOCK];
    private byte[] masks = new byte[INITIAL_SCRATCH];
    private byte[] work = new byte[INITIAL_SCRATCH];
    private byte[] result = new byte[INITIAL_SCRATCH];
    /** Decryption: the chaining block, then the masked input blocks but the last (see {@link #decryptChained}). */
    private byte[] previous = new byte[INITIAL_SCRATCH];
    private volatile boolean destroyed;

    /**
     * {@code key} is K1 || K2: K1 the data key, K2 the tweak key, 64 bytes (XTS-AES-256, what a vault
     * uses) or 32 bytes (XTS-AES-128). The array is copied.
     */
    public AesXts(byte[] key) {
        if (key.length != KEY_LENGTH && key.length != KEY_LENGTH_128) {
            throw new IllegalArgumentException(
                    "XTS-AES needs a 64-byte (or, for XTS-AES-128, 32-byte) key, got " + key.length);
        }
        try {
            dataEncrypt = Cipher.getInstance("AES/ECB/NoPadding");
            dataDecryptChained = Cipher.getInstance("AES/CBC/NoPadding");
            tweakEncrypt = Cipher.getInstance("AES/ECB/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES/ECB or AES/CBC unavailable", e);
        }
        initKeys(key);
    }

    /**
     * Replaces the key with {@code key} (same length rules as the constructor; copied), keeping the
     * cipher objects: looking them up costs more than expanding a key, and a vault opens many files.
     * The previous key's copies are zeroed; its schedule inside the ciphers is overwritten by the new one.
     */
    public void rekey(byte[] key) {
        if (destroyed) {
            throw new IllegalStateException("XTS key destroyed");
        }
        if (key.length != dataKey.getEncodedLength() * 2) {
            throw new IllegalArgumentException("rekey needs a key of the same length, got " + key.length);
        }
        dataKey.destroy();
        tweakKey.destroy();
        initKeys(key);
    }

    private void initKeys(byte[] key) {
        int half = key.length / 2;
        dataKey = new DestroyableKey(key, 0, half, "AES");
        tweakKey = new DestroyableKey(key, half, half, "AES");
        try {
            tweakEncrypt.init(Cipher.ENCRYPT_MODE, tweakKey);
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES key rejected", e);
        }
        dataEncryptKeyed = false;
        dataDecryptChainedKeyed = false;
    }

    /** The CBC decryption cipher, keyed with the current data key and a zero IV if it is not yet. */
    private Cipher chainedDecryption() {
        if (!dataDecryptChainedKeyed) {
            java.util.Arrays.fill(chain, (byte) 0);
            try {
                dataDecryptChained.init(Cipher.DECRYPT_MODE, dataKey, new javax.crypto.spec.IvParameterSpec(chain));
            } catch (GeneralSecurityException e) {
                throw new CryptoException("AES key rejected", e);
            }
            dataDecryptChainedKeyed = true;
        }
        return dataDecryptChained;
    }

    /** The ECB encryption cipher, keyed with the current data key if it is not yet. */
    private Cipher dataEncryption() {
        try {
            if (!dataEncryptKeyed) {
                dataEncrypt.init(Cipher.ENCRYPT_MODE, dataKey);
                dataEncryptKeyed = true;
            }
            return dataEncrypt;
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES key rejected", e);
        }
    }

    /** Encrypts {@code len >= 16} bytes as one data unit under the 16-byte {@code tweak}. In and out may be the same array. */
    public void encrypt(byte[] tweak, int tweakOff, byte[] in, int inOff, byte[] out, int outOff, int len) {
        crypt(true, tweak, tweakOff, in, inOff, out, outOff, len);
    }

    /** Decrypts {@code len >= 16} bytes as one data unit under the 16-byte {@code tweak}. In and out may be the same array. */
    public void decrypt(byte[] tweak, int tweakOff, byte[] in, int inOff, byte[] out, int outOff, int len) {
        crypt(false, tweak, tweakOff, in, inOff, out, outOff, len);
    }

    /**
     * {@code AES(K1, AES(K2, T))}: the 16-byte keystream that encrypts a tiny unit (spec 5.4), written to {@code out}.
     */
    public void tinyKeystream(byte[] tweak, int tweakOff, byte[] out, int outOff) {
        checkAlive();
        encryptTweak(tweak, tweakOff);
        ecb(dataEncryption(), tweakBlock, 0, out, outOff, BLOCK);
    }

    private void crypt(boolean encrypt, byte[] tweak, int tweakOff, byte[] in, int inOff, byte[] out, int outOff, int len) {
        checkAlive();
        if (len < BLOCK) {
            throw new IllegalArgumentException("XTS needs at least 16 bytes, got " + len);
        }
        int fullBlocks = len / BLOCK;
        int tail = len % BLOCK;
        ensureScratch(len + BLOCK);
        encryptTweak(tweak, tweakOff);
        // One mask per full block, plus one more for ciphertext stealing.
        fillMasks(fullBlocks + (tail == 0 ? 0 : 1));
        // Blocks processed the plain way: all full blocks, except the last full one when stealing.
        int plainBlocks = tail == 0 ? fullBlocks : fullBlocks - 1;
        int plainBytes = plainBlocks * BLOCK;
        if (tail != 0) {
            // Saved before out is written: out may overlap in at a higher offset (in == out shifted).
            System.arraycopy(in, inOff + plainBytes, stealIn, 0, BLOCK + tail);
        }
        if (plainBytes > 0 && !encrypt) {
            decryptChained(in, inOff, out, outOff, plainBytes);
        } else if (plainBytes > 0) {
            // The input is consumed into work before out is written, so in and out may alias. Every XOR
            // runs on arrays at offset 0: C2 vectorises such loops, not ones whose offsets differ.
            byte[] src = in;
            if (inOff != 0) {
                System.arraycopy(in, inOff, work, 0, plainBytes);
                src = work;
            }
            xorAtZero(src, masks, work, plainBytes);
            byte[] dst = outOff == 0 ? out : result;
            ecb(dataEncryption(), work, 0, dst, 0, plainBytes);
            xorAtZero(dst, masks, dst, plainBytes);
            if (dst != out) {
                System.arraycopy(dst, 0, out, outOff, plainBytes);
            }
        }
        if (tail != 0) {
            steal(encrypt, out, outOff + plainBytes, plainBytes, tail);
        }
    }

    /**
     * XTS decryption of the full blocks {@code in[inOff, inOff + len)} through CBC: the masked input
     * {@code Y_i = C_i ^ T_i} goes through the CBC cipher, and {@code previous} holds the chaining block
     * then {@code Y_0 .. Y_(n-2)}, so the second pass {@code P_i = CBC_i ^ Y_(i-1) ^ T_i} reads all three
     * arrays at the same index (C2 vectorises only such loops: a shifted one ran 14x slower). The input
     * is consumed into {@code work} before {@code out} is written, so in and out may alias.
     */
    private void decryptChained(byte[] in, int inOff, byte[] out, int outOff, int len) {
        Cipher cipher = chainedDecryption();
        byte[] src = in;
        if (inOff != 0) {
            System.arraycopy(in, inOff, result, 0, len);
            src = result;
        }
        xorAtZero(src, masks, work, len);
        chainedUpdate(cipher, work, len, result);
        System.arraycopy(chain, 0, previous, 0, BLOCK);
        System.arraycopy(work, 0, previous, BLOCK, len - BLOCK);
        System.arraycopy(work, len - BLOCK, chain, 0, BLOCK); // the last input block: the cipher's chain now
        byte[] dst = outOff == 0 ? out : result;
        xor3AtZero(result, previous, masks, dst, len);
        if (dst != out) {
            System.arraycopy(dst, 0, out, outOff, len);
        }
    }

    /**
     * One CBC call; if it fails part-way, the cipher's chaining block is unknown, so the cipher is
     * keyed afresh (zero IV) before its next use instead of decrypting wrongly from then on.
     */
    private void chainedUpdate(Cipher cipher, byte[] in, int len, byte[] out) {
        boolean done = false;
        try {
            int n = cipher.update(in, 0, len, out, 0);
            if (n != len) {
                throw new IllegalStateException("CBC returned " + n + " of " + len + " bytes");
            }
            done = true;
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES/CBC failed", e);
        } finally {
            if (!done) {
                dataDecryptChainedKeyed = false;
            }
        }
    }

    /** {@code out[i] = a[i] ^ b[i] ^ c[i]}; {@code out} may be {@code a}. */
    private static void xor3AtZero(byte[] a, byte[] b, byte[] c, byte[] out, int len) {
        for (int i = 0; i < len; i++) {
            out[i] = (byte) (a[i] ^ b[i] ^ c[i]);
        }
    }

    /**
     * Ciphertext stealing over the last full block (index m-1) and the partial block (index m), whose
     * input {@link #crypt} saved in {@code stealIn}. Allocation-free: it runs for every unit whose
     * length is not a multiple of 16.
     */
    private void steal(boolean encrypt, byte[] out, int outOff, int maskOff, int tail) {
        // Encryption uses mask m-1 first then mask m; decryption the other way round.
        int firstMask = encrypt ? maskOff : maskOff + BLOCK;
        int secondMask = encrypt ? maskOff + BLOCK : maskOff;
        // stealBlock = CC (encrypt) or PP (decrypt): the first tail bytes are the output's partial block.
        cryptBlock(encrypt, stealIn, 0, firstMask, stealBlock, 0);
        // The partial input block, padded with the rest of CC/PP, is the last block to process.
        System.arraycopy(stealBlock, tail, stealIn, BLOCK + tail, BLOCK - tail);
        System.arraycopy(stealBlock, 0, out, outOff + BLOCK, tail);
        cryptBlock(encrypt, stealIn, BLOCK, secondMask, out, outOff);
        Bytes.wipe(stealIn, stealBlock, chainedBlock);
    }

    private void cryptBlock(boolean encrypt, byte[] in, int inOff, int maskOff, byte[] out, int outOff) {
        Bytes.xor(in, inOff, masks, maskOff, stealBlock, 0, BLOCK);
        if (encrypt) {
            ecb(dataEncryption(), stealBlock, 0, stealBlock, 0, BLOCK);
        } else {
            decryptBlockChained(stealBlock);
        }
        Bytes.xor(stealBlock, 0, masks, maskOff, out, outOff, BLOCK);
    }

    /** Decrypts one block in place through the CBC cipher: its output is {@code D(X) ^ chain}, and X becomes the chain. */
    private void decryptBlockChained(byte[] block) {
        chainedUpdate(chainedDecryption(), block, BLOCK, chainedBlock);
        for (int i = 0; i < BLOCK; i++) {
            byte x = block[i];
            block[i] = (byte) (chainedBlock[i] ^ chain[i]);
            chain[i] = x;
        }
    }

    private void encryptTweak(byte[] tweak, int tweakOff) {
        ecb(tweakEncrypt, tweak, tweakOff, tweakBlock, 0, BLOCK);
    }

    /** masks[j] = E_K2(tweak) * alpha^j in GF(2^128), little-endian as IEEE 1619 defines it. */
    private void fillMasks(int count) {
        long lo = Bytes.getLongLE(tweakBlock, 0);
        long hi = Bytes.getLongLE(tweakBlock, 8);
        for (int j = 0; j < count; j++) {
            Bytes.putLongLE(masks, j * BLOCK, lo);
            Bytes.putLongLE(masks, j * BLOCK + 8, hi);
            long carry = hi >> 63; // all ones if the top bit is set
            hi = (hi << 1) | (lo >>> 63);
            lo = (lo << 1) ^ (carry & 0x87L);
        }
    }

    /**
     * Zeroes the scratch arrays, which hold the last unit's cleartext (decrypting into a caller's
     * array at an offset goes through {@code result}); for a cryptor parked between files.
     */
    public void wipeScratch() {
        Bytes.wipe(masks, work, result, previous, tweakBlock, stealIn, stealBlock, chainedBlock, chain);
        dataDecryptChainedKeyed = false; // its chaining block (a masked ciphertext block) goes too
    }

    private void ensureScratch(int len) {
        if (masks.length < len) {
            Bytes.wipe(masks, work, result, previous);
            masks = new byte[len];
            work = new byte[len];
            result = new byte[len];
            previous = new byte[len];
        }
    }

    /** {@code out[i] = a[i] ^ b[i]}: without offsets, so that C2 vectorises it (2.5x the speed of long-wise XOR). */
    private static void xorAtZero(byte[] a, byte[] b, byte[] out, int len) {
        for (int i = 0; i < len; i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
    }

    private static void ecb(Cipher cipher, byte[] in, int inOff, byte[] out, int outOff, int len) {
        try {
            int n = cipher.update(in, inOff, len, out, outOff);
            if (n != len) {
                throw new IllegalStateException("ECB returned " + n + " of " + len + " bytes");
            }
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES/ECB failed", e);
        }
    }

    private void checkAlive() {
        if (destroyed) {
            throw new IllegalStateException("XTS key destroyed");
        }
    }

    /**
     * Zeroes the key copies, re-initialises each cipher with an all-zero key (so the JCE's expanded
     * schedule of the real key is overwritten, as far as the JCE allows), then drops the ciphers.
     */
    @Override
    public void destroy() {
        if (destroyed) {
            return;
        }
        destroyed = true;
        int half = dataKey.getEncodedLength();
        dataKey.destroy();
        tweakKey.destroy();
        DestroyableKey zero = new DestroyableKey(new byte[half], 0, half, "AES");
        try {
            dataEncrypt.init(Cipher.ENCRYPT_MODE, zero);
            dataDecryptChained.init(Cipher.DECRYPT_MODE, zero, new javax.crypto.spec.IvParameterSpec(new byte[BLOCK]));
            tweakEncrypt.init(Cipher.ENCRYPT_MODE, zero);
        } catch (GeneralSecurityException e) {
            // Cannot happen with a valid AES key length; the ciphers are dropped either way.
        }
        dataEncrypt = null;
        dataDecryptChained = null;
        tweakEncrypt = null;
        Bytes.wipe(masks, work, result, previous, tweakBlock, stealIn, stealBlock, chainedBlock, chain);
    }

    @Override
    public boolean isDestroyed() {
        return destroyed;
    }
}
