package dev.coffer.core.health;

import dev.coffer.core.content.ContentKeys;
import dev.coffer.core.content.SectorLayout;
import dev.coffer.core.content.UnitCryptor;
import dev.coffer.core.crypto.AuthenticationFailedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the stored content of one file without decrypting it (spec 5): the ciphertext length
 * against the size table, the header, and in SIV_XTSHMAC the tag of every unit, reading
 * {@value #BATCH_UNITS} units at a time. SIV_XTS has no tags, so only length and header can be
 * checked there. A SIV_XTSHMAC file whose end alone fails (or whose length is impossible after
 * authentic units) is handed to {@link InterruptedWrites}, which tells a write cut short by a crash
 * from damage in the middle. Reads only; never changes the file.
 */
final class ContentVerifier {
    private static final int BATCH_UNITS = 32;
    /** How many damaged units a finding names one by one. */
    private static final int NAMED_UNITS = 5;

    private final ContentKeys keys;
    private final SectorLayout layout;

    ContentVerifier(ContentKeys keys) {
        this.keys = keys;
        this.layout = keys.layout();
    }

    /**
     * What is wrong with the file's content.
     *
     * @param headerOnly true for a file of exactly one authentic header and no unit: the first write
     *                   to an empty file, interrupted after its header (it holds no content at all)
     * @param recovery   for an {@link FindingKind#INTERRUPTED_WRITE}, how much of the file stays; else null
     */
    record Problem(FindingKind kind, String detail, boolean headerOnly, InterruptedWrites.Recovery recovery) {
        Problem(FindingKind kind, String detail) {
            this(kind, detail, false, null);
        }
    }

    /** The problem with the content file {@code payload}, or null if it verifies. */
    Problem verify(Path payload) throws IOException {
        try (FileChannel ch = FileChannel.open(payload, StandardOpenOption.READ)) {
            long length = ch.size();
            long size = layout.cleartextSize(length);
            if (size < 0) {
                if (length == SectorLayout.HEADER && authenticHeader(ch)) {
                    return new Problem(FindingKind.IMPOSSIBLE_SIZE, "only a file header and no content: the first write to this "
                            + "empty file was interrupted; repair empties it again (it holds nothing)", true, null);
                }
                Problem interrupted = keys.authenticated() && length > SectorLayout.HEADER ? interruptedWrite(ch) : null;
                if (interrupted != null) {
                    return interrupted;
                }
                return new Problem(FindingKind.IMPOSSIBLE_SIZE, "ciphertext length " + length + " is impossible for "
                        + mode() + " (spec 5.3)");
            }
            if (size == 0) {
                return null;
            }
            ByteBuffer header = ByteBuffer.allocate(SectorLayout.HEADER);
            if (!PositionalReads.readFully(ch, header, 0)) {
                return new Problem(FindingKind.DAMAGED_HEADER, "the file shrank while it was checked");
            }
            UnitCryptor cryptor;
            try {
                cryptor = keys.open(header.array());
            } catch (AuthenticationFailedException e) {
                return new Problem(FindingKind.DAMAGED_HEADER, "the 48-byte header does not decrypt (damaged, or from another vault)");
            }
            try {
                return keys.authenticated() ? verifyUnits(ch, cryptor, size) : null;
            } finally {
                cryptor.destroy();
            }
        }
    }

    private boolean authenticHeader(FileChannel ch) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(SectorLayout.HEADER);
        if (!PositionalReads.readFully(ch, header, 0)) {
            return false;
        }
        try {
            keys.open(header.array()).destroy();
            return true;
        } catch (AuthenticationFailedException e) {
            return false;
        }
    }

    private Problem verifyUnits(FileChannel ch, UnitCryptor cryptor, long size) throws IOException {
        long units = layout.unitCount(size);
        List<Long> bad = new ArrayList<>();
        long badCount = 0;
        ByteBuffer batch = ByteBuffer.allocate(BATCH_UNITS * layout.storedUnitSize() + SectorLayout.SECTOR);
        for (long first = 0; first < units; first += BATCH_UNITS) {
            long last = Math.min(units, first + BATCH_UNITS) - 1;
            long start = layout.storedUnitOffset(first);
            long end = layout.storedUnitOffset(last) + layout.storedUnitLength(last, size);
            batch.clear().limit((int) (end - start));
            boolean complete = PositionalReads.readFully(ch, batch, start);
            for (long i = first; i <= last; i++) {
                int off = (int) (layout.storedUnitOffset(i) - start);
                int len = layout.storedUnitLength(i, size);
                boolean ok = complete;
                if (ok) {
                    try {
                        cryptor.authenticate(i, i == units - 1, batch.array(), off, len);
                    } catch (AuthenticationFailedException e) {
                        ok = false;
                    }
                }
                if (!ok) {
                    badCount++;
                    if (bad.size() < NAMED_UNITS) {
                        bad.add(i);
                    }
                }
            }
        }
        if (badCount == 0) {
            return null;
        }
        InterruptedWrites.Recovery recovery = new InterruptedWrites(layout).analyse(ch, cryptor);
        if (recovery != null) {
            return interrupted(recovery);
        }
        StringBuilder detail = new StringBuilder();
        detail.append(badCount).append(" of ").append(units).append(units == 1 ? " unit" : " units")
                .append(" fail authentication; reads of these cleartext ranges fail:");
        for (long i : bad) {
            long from = SectorLayout.unitStart(i);
            detail.append(' ').append(from).append("..").append(from + layout.unitLength(i, size) - 1);
        }
        if (badCount > bad.size()) {
            detail.append(" ...");
        }
        return new Problem(FindingKind.DAMAGED_CONTENT, detail.toString());
    }

    /** An impossible length: an interrupted write if the header and the units before the end authenticate. */
    private Problem interruptedWrite(FileChannel ch) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(SectorLayout.HEADER);
        if (!PositionalReads.readFully(ch, header, 0)) {
            return null;
        }
        UnitCryptor cryptor;
        try {
            cryptor = keys.open(header.array());
        } catch (AuthenticationFailedException e) {
            return null;
        }
        try {
            InterruptedWrites.Recovery recovery = new InterruptedWrites(layout).analyse(ch, cryptor);
            return recovery == null ? null : interrupted(recovery);
        } finally {
            cryptor.destroy();
        }
    }

    private static Problem interrupted(InterruptedWrites.Recovery r) {
        String readable = r.readable() == 0 ? "no cleartext byte is readable" : "cleartext bytes 0.." + (r.readable() - 1)
                + " are readable (" + r.readable() + " bytes)";
        String detail = "a write cut short by a crash (or the end was tampered with): " + readable + ", about " + r.unreadable()
                + " bytes after them are not"
                + (r.oldEnd() ? "; the file as it was before that write is intact, and repair restores it" : "; repair truncates"
                + " the file to its readable bytes") + " after keeping a copy of the ciphertext file in " + RepairBackups.FOLDER + "/";
        return new Problem(FindingKind.INTERRUPTED_WRITE, detail, false, r);
    }

    private String mode() {
        return keys.authenticated() ? "SIV_XTSHMAC" : "SIV_XTS";
    }
}
