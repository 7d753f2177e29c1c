package dev.coffer.core.content;

import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.crypto.Bytes;
import java.security.SecureRandom;

/**
 * What every open file of one vault needs to seal and open its content: the header sealer, the
 * content mode and the unit layout. Creates a {@link UnitCryptor} per file secret.
 */
public final class ContentKeys {
    private final FileHeaders headers;
    private final boolean authenticated;
    private final SectorLayout layout;

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
            return new Sealed(headers.seal(secret), new UnitCryptor(secret, authenticated, UnitCryptor.newNonceSource()));
        } finally {
            Bytes.wipe(secret);
        }
    }

    /** The cryptor of an existing file, from its stored header. */
    public UnitCryptor open(byte[] header) throws AuthenticationFailedException {
        byte[] secret = headers.open(header);
        try {
            return new UnitCryptor(secret, authenticated, UnitCryptor.newNonceSource());
        } finally {
            Bytes.wipe(secret);
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
            cryptor.destroy();
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
            sealed.cryptor().destroy();
        }
    }
}
