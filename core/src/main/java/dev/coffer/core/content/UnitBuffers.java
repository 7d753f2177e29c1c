package dev.coffer.core.content;

import dev.coffer.core.crypto.Bytes;

/**
 * Scratch buffers of one open file, reused under its lock so that streaming I/O does not allocate.
 * The batch buffer has a twin ({@link #swapStored}) for writes that run behind: one is being
 * written while the next batch is encrypted into the other. Knows nothing of who uses which.
 */
final class UnitBuffers {
    private final byte[] plain;
    private final int retagOffset;
    private byte[] stored;
    /** The other batch buffer, made on the first {@link #swapStored}; null for files never written behind. */
    private byte[] twin;

    UnitBuffers(int batch, int maxStoredUnit) {
        plain = new byte[SectorLayout.SECTOR + SectorLayout.MIN_XTS];
        retagOffset = batch * maxStoredUnit;
        // A batch of stored units, then room for one more: the old last unit re-tagged after them.
        stored = new byte[retagOffset + maxStoredUnit];
    }

    /** Room for one unit's cleartext (up to S + 15 bytes). */
    byte[] plain() {
        return plain;
    }

    /** Room for a batch of stored units, and one unit at {@link #retagOffset}. */
    byte[] stored() {
        return stored;
    }

    /** Where in {@link #stored} the re-tagged old last unit goes, after any batch. */
    int retagOffset() {
        return retagOffset;
    }

    /** Makes the twin the batch buffer: the current one stays with a write running behind. */
    void swapStored() {
        byte[] other = twin == null ? new byte[stored.length] : twin;
        twin = stored;
        stored = other;
    }

    void wipe() {
        Bytes.wipe(plain, stored, twin);
    }
}
