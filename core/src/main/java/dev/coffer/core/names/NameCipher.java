package dev.coffer.core.names;

import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.crypto.AuthenticationFailedException;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Encrypts cleartext names under their parent's directory ID, and hashes directory IDs to storage
 * folders (spec 4). Deterministic (AES-SIV), so the same name in the same folder always gives the
 * same ciphertext name. Thread-safe.
 *
 * <p>Both are pure functions of the key, so their results are remembered: a mount resolves the same
 * path several times per file (tar: a lookup, the create, a getattr after each of three setattrs),
 * and looks up each name a listing has just decrypted ({@code ls -lR}, {@code rm -rf}); and a folder
 * is listed again and again ({@code ls -l} in a loop, a file manager's refresh), each time decrypting
 * the same names. A remembered name can never be stale ({@link EncryptedNames}: bounded, and forgotten on lock with the key).
 */
public final class NameCipher {
    private static final int HASH_CACHE_LIMIT = 10_000;

    private final AesSiv siv;
    private final Map<String, String> storageFolderCache = new ConcurrentHashMap<>();
    private final EncryptedNames encryptedNames = new EncryptedNames();

    public NameCipher(AesSiv siv) {
        this.siv = siv;
    }

    /** {@code Base64url(AES-SIV(sivKey, UTF-8(name), AD = [UTF-8(parentDirId)]))}, with padding. {@code name} must be NFC. */
    public String encrypt(String name, String parentDirId) {
        String known = encryptedNames.get(parentDirId, name);
        if (known != null) {
            return known;
        }
        byte[] ct = siv.encrypt(name.getBytes(StandardCharsets.UTF_8), parentDirId.getBytes(StandardCharsets.UTF_8));
        String encrypted = Base64.getUrlEncoder().encodeToString(ct);
        remember(parentDirId, name, encrypted);
        return encrypted;
    }

    /**
     * Decrypts an encrypted name (without {@code .c9r}); fails for anything that is not padded
     * Base64url of an authentic SIV ciphertext under this parent. The result is not yet validated.
     */
    public String decrypt(String encName, String parentDirId) throws AuthenticationFailedException {
        String known = rememberedName(encName, parentDirId);
        if (known != null) {
            return known;
        }
        if (encName.length() < 24 || encName.length() % 4 != 0) {
            throw new AuthenticationFailedException("not an encrypted name");
        }
        byte[] ct;
        try {
            ct = Base64.getUrlDecoder().decode(encName);
        } catch (IllegalArgumentException e) {
            throw new AuthenticationFailedException("not Base64url");
        }
        byte[] pt = siv.decrypt(ct, parentDirId.getBytes(StandardCharsets.UTF_8));
        String name = Names.decodeUtf8(pt);
        // What encrypt would give for this name, unless the Base64 had non-canonical padding bits
        // (the decoder accepts them; encrypt never writes them). The strict UTF-8 decoding round-trips.
        if (Base64.getUrlEncoder().encodeToString(ct).equals(encName)) {
            remember(parentDirId, name, encName);
        }
        return name;
    }

    /**
     * The name remembered as decrypting from {@code encName} (only authentic, canonical encryptions
     * are remembered), or null; none once the key is destroyed. Package-private for the tests.
     */
    String rememberedName(String encName, String parentDirId) {
        String known = encryptedNames.nameOf(parentDirId, encName);
        return known != null && !siv.isDestroyed() ? known : null;
    }

    private void remember(String parentDirId, String name, String encrypted) {
        encryptedNames.put(parentDirId, name, encrypted);
        // The stores above before the check below: a lock that cleared the table in between is seen.
        VarHandle.fullFence();
        if (siv.isDestroyed()) {
            encryptedNames.clear(); // a lock cleared the table while this call was under way: no name stays
        }
    }

    /** {@code XX/YYYYYYYYYYYYYYYYYYYYYYYYYYYYYY}: the storage folder of {@code dirId} below {@code d/}. */
    public String storageFolder(String dirId) {
        String cached = storageFolderCache.get(dirId);
        if (cached != null) {
            return cached;
        }
        byte[] sivOut = siv.encrypt(dirId.getBytes(StandardCharsets.UTF_8));
        String h = Base32.encode(sha1(sivOut));
        String folder = h.substring(0, 2) + "/" + h.substring(2, 32);
        if (storageFolderCache.size() >= HASH_CACHE_LIMIT) {
            storageFolderCache.clear();
        }
        storageFolderCache.put(dirId, folder);
        return folder;
    }

    static byte[] sha1(byte[] in) {
        try {
            return MessageDigest.getInstance("SHA-1").digest(in);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every JDK", e);
        }
    }

    /** Forgets cached hashes and names (on lock). */
    public void clearCaches() {
        storageFolderCache.clear();
        encryptedNames.clear();
    }
}
