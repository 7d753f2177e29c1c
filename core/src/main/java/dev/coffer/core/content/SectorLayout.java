package dev.coffer.core.content;

/**
 * The pure size and offset maths of spec 5.2 and 5.3: where each data unit of a cleartext file of
 * size {@code n} starts and ends, where it is stored, and the cleartext size a ciphertext length
 * implies. No I/O, no crypto; every other class asks this one.
 *
 * <p>Units: unit {@code i} covers {@code [i*S, min((i+1)*S, n))}; a last unit shorter than 16 bytes
 * that is not unit 0 is merged into the unit before (which then covers {@code S + r} bytes). A
 * stored unit is {@code overhead} bytes longer than its cleartext (32 in SIV_XTSHMAC: nonce and
 * tag; 0 in SIV_XTS). A non-empty file starts with the 48-byte header.
 */
public final class SectorLayout {
    public static final int SECTOR = 4096;
    public static final int HEADER = 48;
    public static final int MIN_XTS = 16;
    /** Per-unit overhead of SIV_XTSHMAC: 16-byte nonce and 16-byte tag. */
    public static final int HMAC_OVERHEAD = 32;

    private final int overhead;

    /** @param overhead bytes a stored unit adds to its cleartext: 32 (SIV_XTSHMAC) or 0 (SIV_XTS) */
    public SectorLayout(int overhead) {
        if (overhead != 0 && overhead != HMAC_OVERHEAD) {
            throw new IllegalArgumentException("unit overhead must be 0 or 32, got " + overhead);
        }
        this.overhead = overhead;
    }

    public int overhead() {
        return overhead;
    }

    /** Size of a stored full unit: S plus the overhead. */
    public int storedUnitSize() {
        return SECTOR + overhead;
    }

    /** Number of data units of a file of {@code n} cleartext bytes (0 for an empty file). */
    public long unitCount(long n) {
        if (n <= 0) {
            return 0;
        }
        long full = n / SECTOR;
        long rem = n % SECTOR;
        if (rem == 0) {
            return full;
        }
        if (full >= 1 && rem < MIN_XTS) {
            return full; // merged into the unit before
        }
        return full + 1;
    }

    /** Cleartext start offset of unit {@code i}. */
    public static long unitStart(long i) {
        return i * SECTOR;
    }

    /** Cleartext length of unit {@code i} in a file of size {@code n} ({@code i < unitCount(n)}). */
    public int unitLength(long i, long n) {
        long count = unitCount(n);
        assert i >= 0 && i < count : "unit " + i + " outside 0.." + count;
        if (i < count - 1) {
            return SECTOR;
        }
        return (int) (n - unitStart(i)); // last unit: S, r >= 16, tiny, or merged S + r
    }

    /** Index of the unit holding cleartext byte {@code offset} of a file of size {@code n} ({@code offset < n}). */
    public long unitOf(long offset, long n) {
        assert offset >= 0 && offset < n : "offset " + offset + " outside file of " + n;
        return Math.min(offset / SECTOR, unitCount(n) - 1);
    }

    /** Ciphertext offset where unit {@code i} is stored. */
    public long storedUnitOffset(long i) {
        return HEADER + i * (long) storedUnitSize();
    }

    /** Stored length of unit {@code i} in a file of size {@code n}. */
    public int storedUnitLength(long i, long n) {
        return unitLength(i, n) + overhead;
    }

    /**
     * The largest cleartext size this layout stores: whole units only, as many as a ciphertext length
     * (a Java long) can hold. Every size up to it has a ciphertext length of at most
     * {@code Long.MAX_VALUE} ({@link #ciphertextLength} grows with the size).
     */
    public long maxCleartextSize() {
        return (Long.MAX_VALUE - HEADER) / storedUnitSize() * SECTOR;
    }

    /** Ciphertext length of a file of {@code n} cleartext bytes: 0, or header plus every stored unit. */
    public long ciphertextLength(long n) {
        if (n == 0) {
            return 0;
        }
        return HEADER + n + unitCount(n) * overhead;
    }

    /**
     * Cleartext size implied by ciphertext length {@code l} (spec 5.3's table, checked in order), or
     * -1 if no file of this content mode can have that length (damaged).
     */
    public long cleartextSize(long l) {
        if (l == 0) {
            return 0;
        }
        if (l <= HEADER) {
            return -1;
        }
        if (overhead == 0) {
            return l - HEADER;
        }
        long u = storedUnitSize();
        long q = (l - HEADER) / u;
        long rem = (l - HEADER) % u;
        if (rem == 0) {
            return q * SECTOR;
        }
        if (rem >= 1 && rem <= 15 && q >= 1) {
            return q * SECTOR + rem;
        }
        if (rem >= 48 && rem <= SECTOR + 31) {
            return q * SECTOR + rem - HMAC_OVERHEAD;
        }
        if (rem >= 33 && rem <= 47 && q == 0) {
            return rem - HMAC_OVERHEAD;
        }
        return -1;
    }
}
