package dev.coffer.core.content;

import dev.coffer.core.crypto.Bytes;

/** Scratch buffers of one open file, reused under its lock so that streaming I/O does not allocate. */
final class UnitBuffers {
    private final byte[] plain;
    private final byte[] stored;

    UnitBuffers(int batch, int maxStoredUnit) {
        plain = new byte[SectorLayout.SECTOR + SectorLayout.MIN_XTS];
        stored = new byte[batch * maxStoredUnit];
    }

    /** Room for one unit's cleartext (up to S + 15 bytes). */
    byte[] plain() {
        return plain;
    }

    /** Room for a batch of stored units. */
    byte[] stored() {
        return stored;
    }

    void wipe() {
        Bytes.wipe(plain, stored);
    }
}
