package dev.coffer.core.vault;

import dev.coffer.core.content.ContentKeys;
import dev.coffer.core.content.FileHeaders;
import dev.coffer.core.content.SectorLayout;
import dev.coffer.core.content.UnitCryptor;
import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.crypto.Bytes;
import java.security.SecureRandom;
import java.util.function.BooleanSupplier;

/**
 * The work of a JIT warm-up: seals and opens file headers and encrypts and decrypts the units of
 * synthetic files, in memory, through the same content-layer calls a streaming write and read make
 * ({@link ContentKeys#newFile}, {@link ContentKeys#open}, {@link UnitCryptor}), so that the JIT
 * compiles those hot loops before the first real read needs them.
 *
 * <p>Every key is a throwaway: a fresh random AES-SIV key made here and destroyed by {@link #close()},
 * never derived from a vault's master key. Nothing is read or written anywhere. Not responsible for
 * when or how long it runs ({@link CryptoWarmUp}).
 */
final class CryptoExercise implements CryptoWarmUp.Exercise {
    /** Units of one synthetic file: 1 MiB, like a streamed file, so key set-up stays a small share. */
    static final int UNITS_PER_FILE = 256;
    /**
     * The last unit's length: not a multiple of 16, so that XTS's ciphertext stealing runs too (a
     * real file's last unit is usually partial; a branch C2 never saw would cost a recompilation).
     */
    static final int LAST_UNIT_LENGTH = 3001;

    private final AesSiv throwawaySiv;
    private final ContentKeys keys;
    private final byte[] cleartext;
    private final byte[] ciphertext;
    private final byte[] decrypted;

    /** @param authenticated the vault's content mode: true for SIV_XTSHMAC, false for SIV_XTS */
    CryptoExercise(boolean authenticated) {
        SecureRandom random = new SecureRandom();
        byte[] throwawayKey = new byte[AesSiv.KEY_LENGTH];
        random.nextBytes(throwawayKey);
        try {
            throwawaySiv = new AesSiv(throwawayKey);
        } finally {
            Bytes.wipe(throwawayKey);
        }
        keys = new ContentKeys(new FileHeaders(throwawaySiv, random), authenticated);
        int cleartextLength = (UNITS_PER_FILE - 1) * SectorLayout.SECTOR + LAST_UNIT_LENGTH;
        // Zeros: the ciphers do the same work whatever the bytes, and filling 1 MiB from SecureRandom
        // takes over a second before the JIT has compiled SHA-1 (NativePRNG mixes it in).
        cleartext = new byte[cleartextLength];
        ciphertext = new byte[(int) keys.layout().ciphertextLength(cleartextLength)];
        decrypted = new byte[cleartextLength];
    }

    /**
     * One synthetic file: a new header and every unit encrypted, then the header opened again and
     * every unit decrypted, as a write and a later read of the file would. Stops between units once
     * {@code stop} says so.
     *
     * @return the units encrypted plus the units decrypted
     */
    @Override
    public int run(BooleanSupplier stop) {
        ContentKeys.Sealed sealed = keys.newFile();
        int done;
        try {
            done = encryptUnits(sealed.cryptor(), stop);
        } finally {
            keys.release(sealed.cryptor());
        }
        if (done < UNITS_PER_FILE) {
            return done;
        }
        UnitCryptor reader = openHeader(sealed.header());
        try {
            return done + decryptUnits(reader, stop);
        } finally {
            keys.release(reader);
        }
    }

    private int encryptUnits(UnitCryptor writer, BooleanSupplier stop) {
        for (int i = 0; i < UNITS_PER_FILE; i++) {
            if (stop.getAsBoolean()) {
                return i;
            }
            writer.encrypt(i, i == UNITS_PER_FILE - 1, cleartext, i * SectorLayout.SECTOR, unitLength(i),
                    ciphertext, (int) keys.layout().storedUnitOffset(i));
        }
        return UNITS_PER_FILE;
    }

    private int decryptUnits(UnitCryptor reader, BooleanSupplier stop) {
        try {
            for (int i = 0; i < UNITS_PER_FILE; i++) {
                if (stop.getAsBoolean()) {
                    return i;
                }
                reader.decrypt(i, i == UNITS_PER_FILE - 1, ciphertext, (int) keys.layout().storedUnitOffset(i),
                        unitLength(i) + keys.layout().overhead(), decrypted, i * SectorLayout.SECTOR);
            }
            return UNITS_PER_FILE;
        } catch (AuthenticationFailedException e) {
            // Cannot happen (the units were sealed a moment ago); the warm-up ignores its failures anyway.
            throw new IllegalStateException("warm-up unit failed authentication", e);
        }
    }

    private UnitCryptor openHeader(byte[] header) {
        try {
            return keys.open(header);
        } catch (AuthenticationFailedException e) {
            throw new IllegalStateException("warm-up header failed authentication", e);
        }
    }

    private int unitLength(int i) {
        return i == UNITS_PER_FILE - 1 ? LAST_UNIT_LENGTH : SectorLayout.SECTOR;
    }

    /** Destroys the throwaway keys (the pooled cryptors too) and wipes the synthetic data. */
    @Override
    public void close() {
        keys.destroy();
        throwawaySiv.destroy();
        Bytes.wipe(cleartext, ciphertext, decrypted);
    }
}
