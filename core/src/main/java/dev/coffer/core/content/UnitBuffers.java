package dev.coffer.core.content;

import dev.coffer.core.crypto.Bytes;

/**
 * Scratch buffers of one open file, reused under its lock so that streaming I/O does not allocate.
 * Made on first use and only as large as needed: a small file that is only read gets a batch buffer
 * the size of its ciphertext, not 132 KiB. The batch buffer has a twin ({@link #swapStored}) for
 * writes that run behind: one is being written while the next batch is encrypted into the other.
 * Knows nothing of who uses which.
 *
 * <p>Only {@link #plain} ever holds cleartext, so only it is wiped; the batch buffers hold
 * ciphertext (stored units read or about to be written), which is on disk anyway.
 */
class UnitBuffers { // not final: a test makes one whose batch buffer cannot be made (no memory)
    private final int maxStoredUnit;
    private final int fullLength;
    private byte[] plain;
    private byte[] stored;
    /** The other batch buffer, made on the first {@link #swapStored}; null for files never written behind. */
    private byte[] twin;

    UnitBuffers(int batch, int maxStoredUnit) {
        this.maxStoredUnit = maxStoredUnit;
        // A batch of stored units, then room for one more: the old last unit re-tagged after them.
        fullLength = (batch + 1) * maxStoredUnit;
    }

    /** Empty buffers of the same sizes as {@code sizes}' (tests: a subclass that fails to make one). */
    UnitBuffers(UnitBuffers sizes) {
        this.maxStoredUnit = sizes.maxStoredUnit;
        this.fullLength = sizes.fullLength;
    }

    /** Room for one unit's cleartext (up to S + 15 bytes). */
    byte[] plain() {
        if (plain == null) {
            plain = new byte[SectorLayout.SECTOR + SectorLayout.MIN_XTS];
        }
        return plain;
    }

    /**
     * A batch buffer with room for {@code lead} bytes (a new file's header), then {@code units} stored
     * units, then one more unit at {@link #retagOffset(int)} if {@code withRetag}: what a write needs.
     * Sized to the write, so a small file's write does not allocate (and zero) a whole batch.
     */
    byte[] stored(int lead, int units, boolean withRetag) {
        return stored(lead + (withRetag ? units + 1 : units) * maxStoredUnit);
    }

    /** A batch buffer of at least {@code length} bytes: what a read of stored units needs. */
    byte[] stored(int length) {
        if (stored == null || stored.length < length) {
            // Doubling, so a file read or written in growing pieces allocates a few times at most.
            int grown = stored == null ? length : Math.max(length, 2 * stored.length);
            stored = new byte[Math.max(length, Math.min(fullLength, grown))];
        }
        return stored;
    }

    /** Where the re-tagged old last unit goes in a buffer of {@link #stored(int, int, boolean)}: after {@code units} units. */
    int retagOffset(int units) {
        return units * maxStoredUnit;
    }

    /** Makes the twin the batch buffer: the current one stays with a write running behind. */
    void swapStored() {
        byte[] other = twin == null ? new byte[fullLength] : twin;
        twin = stored;
        stored = other;
    }

    /** Zeroes the one buffer that held cleartext. */
    void wipe() {
        Bytes.wipe(plain);
    }
}
