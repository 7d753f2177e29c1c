package dev.coffer.core.content;

import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.crypto.Bytes;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import javax.security.auth.Destroyable;

/**
 * What every open file of one vault needs to seal and open its content: the header sealer, the
 * content mode and the unit layout. Hands out a {@link UnitCryptor} per file secret from a small
 * pool of idle ones (re-keyed, not rebuilt: building the JCE objects cost more than reading a
 * 12 KiB file); {@link #release} takes them back, {@link #destroy} empties the pool on lock.
 * Knows nothing of files on disk.
 */
public final class ContentKeys implements Destroyable {
    /** Idle cryptors kept: enough for every core's reader and a writer; each holds ~14 KiB. */
    private static final int MAX_IDLE = 4 * Runtime.getRuntime().availableProcessors() + 4;

    private final FileHeaders headers;
    private final boolean authenticated;
    private final SectorLayout layout;
    private final Deque<UnitCryptor> idle = new ConcurrentLinkedDeque<>();
    private volatile boolean destroyed;

    public ContentKeys(FileHeaders headers, boolean authenticated) {
        this.headers = headers;
        this.authenticated = authenticated;
        this.layout = new SectorLayout(authenticated ? SectorLayout.HMAC_OVERHEAD : 0);
    }

    public SectorLayout layout() {
        return layout;
    }

    public boolean authenticated() {
        return authenticated;
    }

    /** A new file secret: its sealed header and the cryptor for its units. */
    public Sealed newFile() {
        byte[] secret = headers.newSecret();
        try {
            return new Sealed(headers.seal(secret), borrow(secret));
        } finally {
            Bytes.wipe(secret);
        }
    }

    /** The cryptor of an existing file, from its stored header. */
    public UnitCryptor open(byte[] header) throws AuthenticationFailedException {
        byte[] secret = headers.open(header);
        try {
            return borrow(secret);
        } finally {
            Bytes.wipe(secret);
        }
    }

    /** An idle cryptor re-keyed for {@code secret}, or a new one if none is idle. */
    private UnitCryptor borrow(byte[] secret) {
        if (destroyed) {
            throw new IllegalStateException("content keys destroyed");
        }
        UnitCryptor cryptor = idle.pollFirst();
        if (cryptor == null) {
            return new UnitCryptor(secret, authenticated, UnitCryptor.newNonceSource());
        }
        cryptor.rekey(secret);
        return cryptor;
    }

    /**
     * Takes back a cryptor from {@link #open} or {@link #newFile} that its user is done with; the
     * caller must not use it again. Kept for the next file while the pool has room, else destroyed.
     */
    public void release(UnitCryptor cryptor) {
        if (cryptor.isDestroyed()) {
            return;
        }
        if (cryptor.isParked()) {
            // Queued twice, it would be lent to two files at once and encrypt one under the other's key.
            throw new IllegalStateException("cryptor handed back twice");
        }
        if (destroyed || idle.size() >= MAX_IDLE) {
            cryptor.destroy();
            return;
        }
        cryptor.park();
        idle.addFirst(cryptor);
        if (destroyed) {
            drain(); // destroy() ran meanwhile and may have missed this one
        }
    }

    /**
     * On lock: refuses new cryptors and destroys every idle one (keys zeroed, JCE objects re-keyed
     * with zeros, then dropped). Cryptors still lent out are destroyed by their users (open files
     * close first) or, if released later, on release.
     */
    @Override
    public void destroy() {
        destroyed = true;
        drain();
    }

    @Override
    public boolean isDestroyed() {
        return destroyed;
    }

    /** Idle cryptors, for tests. */
    int idleCount() {
        return idle.size();
    }

    private void drain() {
        for (UnitCryptor c; (c = idle.pollFirst()) != null; ) {
            c.destroy();
        }
    }

    /** A header and the cryptor it stands for. */
    public record Sealed(byte[] header, UnitCryptor cryptor) {}

    /** Decrypts a whole small file (dirid.c9r, symlink.c9r) held in memory; used outside open files. */
    public byte[] decryptSmall(byte[] ciphertext) throws AuthenticationFailedException {
        long n = layout.cleartextSize(ciphertext.length);
        if (n < 0) {
            throw new AuthenticationFailedException("impossible length " + ciphertext.length);
        }
        byte[] out = new byte[(int) n];
        if (n == 0) {
            return out;
        }
        byte[] header = java.util.Arrays.copyOf(ciphertext, SectorLayout.HEADER);
        UnitCryptor cryptor = open(header);
        try {
            long units = layout.unitCount(n);
            for (long i = 0; i < units; i++) {
                cryptor.decrypt(i, i == units - 1, ciphertext, (int) layout.storedUnitOffset(i),
                        layout.storedUnitLength(i, n), out, (int) SectorLayout.unitStart(i));
            }
            return out;
        } finally {
            release(cryptor);
        }
    }

    /** Encrypts a whole small file held in memory, with a fresh file secret. */
    public byte[] encryptSmall(byte[] cleartext) {
        long n = cleartext.length;
        if (n == 0) {
            return new byte[0];
        }
        Sealed sealed = newFile();
        try {
            byte[] out = new byte[(int) layout.ciphertextLength(n)];
            System.arraycopy(sealed.header(), 0, out, 0, SectorLayout.HEADER);
            long units = layout.unitCount(n);
            for (long i = 0; i < units; i++) {
                sealed.cryptor().encrypt(i, i == units - 1, cleartext, (int) SectorLayout.unitStart(i),
                        layout.unitLength(i, n), out, (int) layout.storedUnitOffset(i));
            }
            return out;
        } finally {
            release(sealed.cryptor());
        }
    }
}
