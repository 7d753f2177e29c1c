package dev.coffer.core.health;

import dev.coffer.core.content.SectorLayout;
import dev.coffer.core.content.UnitCryptor;
import dev.coffer.core.crypto.AuthenticationFailedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Tells a SIV_XTSHMAC file whose end a crash cut short (a write interrupted by a kill: Linux may cut a
 * large {@code pwrite} at a page) from a file damaged in the middle, and says how much of it can be
 * kept. Works on a file whose header authenticates; reads only.
 *
 * <p>Two shapes count as an interrupted write, both with a run of leading whole units that authenticate
 * as middle units (with either flag: spec 5.3 lets a middle unit carry last = 1, which a full old last
 * unit not yet re-tagged does):
 * <ul>
 *   <li><b>an old end</b>: the unit after that run authenticates as the file's final unit at a length
 *       shorter than what follows it. The core writes an extension's new units first and re-encrypts
 *       a partial old final unit last, so this is the file as it was before the interrupted
 *       write, followed by that write's bytes; cutting the ciphertext after that unit restores the old
 *       file exactly, with no re-encryption ({@link Recovery#cutCiphertextTo()}).</li>
 *   <li><b>a torn end</b>: after that run there is at most one unit, and it does not authenticate (the
 *       partly written last unit of a write cut short), or nothing at all (a cut at a unit boundary
 *       left a middle unit last). The run is kept: the repair gives
 *       the ciphertext a length the file system accepts and truncates the file through the vault file
 *       system to the end of the run, which re-tags the new final unit
 *       ({@link Recovery#truncateCleartextTo()}).</li>
 * </ul>
 * Any other failing unit (one followed by authentic units that are no old end) is damage in the middle:
 * not this class's business ({@link ContentVerifier} reports it, and nothing repairs it). Not
 * responsible for SIV_XTS, whose units carry no tag: there a cut end cannot be told from content.
 */
final class InterruptedWrites {
    private final SectorLayout layout;

    InterruptedWrites(SectorLayout layout) {
        this.layout = layout;
        if (layout.overhead() == 0) {
            throw new IllegalArgumentException("only SIV_XTSHMAC units can be told apart");
        }
    }

    /**
     * How an interrupted write is repaired.
     *
     * @param ciphertextLength    the file's length when it was analysed
     * @param readable            cleartext bytes that stay: {@code [0, readable)}
     * @param unreadable          cleartext bytes beyond them that cannot be read (for a length the
     *                            mode does not allow, what the ciphertext would hold)
     * @param cutCiphertextTo     for an old end: the ciphertext length of the file before the write; else -1
     * @param truncateCleartextTo for a torn end: the cleartext size to truncate to through the vault
     *                            file system (after giving the ciphertext {@link #preparedLength()}); else -1
     */
    record Recovery(long ciphertextLength, long readable, long unreadable, long cutCiphertextTo, long truncateCleartextTo) {
        /** The ciphertext length a torn end is given before the truncation: the kept units and a 16-byte final unit. */
        long preparedLength() {
            return SectorLayout.HEADER + truncateCleartextTo / SectorLayout.SECTOR * (SectorLayout.SECTOR + SectorLayout.HMAC_OVERHEAD)
                    + SectorLayout.MIN_XTS + SectorLayout.HMAC_OVERHEAD;
        }

        boolean oldEnd() {
            return cutCiphertextTo >= 0;
        }
    }

    /** The recovery for the file in {@code ch} (header authentic, opened as {@code cryptor}), or null if its damage is elsewhere. */
    Recovery analyse(FileChannel ch, UnitCryptor cryptor) throws IOException {
        long length = ch.size();
        int stored = layout.storedUnitSize();
        long slots = (length - SectorLayout.HEADER + stored - 1) / stored; // the last may be partial
        ByteBuffer unit = ByteBuffer.allocate(stored + SectorLayout.MIN_XTS);
        long k = 0;
        while (k < slots && available(length, k) >= stored && authentic(ch, cryptor, unit, k, stored, false)) {
            k++;
        }
        long oldEnd = oldEnd(ch, cryptor, unit, length, k);
        if (oldEnd >= 0) {
            long readable = layout.cleartextSize(oldEnd);
            return new Recovery(length, readable, Math.max(0, cleartextEquivalent(length) - readable), oldEnd, -1);
        }
        if (length - layout.storedUnitOffset(k) >= stored + SectorLayout.MIN_XTS) {
            return null; // more than one unit fails: a single cut write leaves at most its last unit partial
        }
        for (long i = k; i < slots; i++) {
            int len = (int) Math.min(available(length, i), stored + SectorLayout.MIN_XTS);
            boolean last = i == slots - 1 || i == slots - 2 && available(length, i + 1) < SectorLayout.MIN_XTS;
            if (authentic(ch, cryptor, unit, i, Math.min(len, stored), false) || last && authentic(ch, cryptor, unit, i, len, true)) {
                return null; // something authentic after the failure: damage in the middle
            }
        }
        long readable = k * SectorLayout.SECTOR;
        return new Recovery(length, readable, Math.max(0, cleartextEquivalent(length) - readable), -1, readable);
    }

    /**
     * The ciphertext length at which unit {@code k} ends as an authentic final unit, shorter than the
     * file; -1 if there is none. Tries every length a final unit {@code k} can have, longest first.
     */
    private long oldEnd(FileChannel ch, UnitCryptor cryptor, ByteBuffer unit, long length, long k) throws IOException {
        long offset = layout.storedUnitOffset(k);
        if (offset >= length) {
            return -1;
        }
        int max = (int) Math.min(length - offset, unit.capacity());
        unit.clear().limit(max);
        if (!PositionalReads.readFully(ch, unit, offset)) {
            return -1;
        }
        for (int len = max; len > layout.overhead(); len--) {
            long candidate = offset + len;
            long size = layout.cleartextSize(candidate);
            if (candidate >= length || size < 0 || layout.unitCount(size) - 1 != k) {
                continue;
            }
            try {
                cryptor.authenticate(k, true, unit.array(), 0, len);
                return candidate;
            } catch (AuthenticationFailedException e) {
                // not at this length
            }
        }
        return -1;
    }

    private boolean authentic(FileChannel ch, UnitCryptor cryptor, ByteBuffer unit, long i, int len, boolean last) throws IOException {
        unit.clear().limit(len);
        if (len <= layout.overhead() || !PositionalReads.readFully(ch, unit, layout.storedUnitOffset(i))) {
            return false;
        }
        try {
            cryptor.authenticate(i, last, unit.array(), 0, len);
            return true;
        } catch (AuthenticationFailedException e) {
            return false;
        }
    }

    private long available(long length, long i) {
        return length - layout.storedUnitOffset(i);
    }

    /** The cleartext a ciphertext of {@code length} would hold if every unit were whole: for the report only. */
    private long cleartextEquivalent(long length) {
        long units = length - SectorLayout.HEADER;
        long slots = (units + layout.storedUnitSize() - 1) / layout.storedUnitSize();
        return Math.max(0, units - slots * layout.overhead());
    }
}
