package dev.coffer.core.content;

import dev.coffer.core.crypto.AuthenticationFailedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The one open-file object of a ciphertext file, shared by every channel on it so that all see each
 * other's writes. Translates cleartext reads, writes and truncates into whole-unit ciphertext I/O.
 *
 * <p>Over 400 lines because the write path is one algorithm (spec 5.2): find the units whose
 * extent, content or last flag change, read the old cleartext they still need, then write new units
 * first and re-tag the old last unit after, so a crash mid-append never loses fsynced data.
 *
 * <p>Thread-safe: writes, truncates and close hold the file's write lock; reads share its read lock
 * and run in parallel (a mount's workers decrypt the kernel's read-ahead requests on every core).
 * A cryptor is not thread-safe, so a read uses the file's own cryptor when it is free, and
 * otherwise a second cryptor opened from the same header ({@link Decryptor}), kept for the next read.
 */
public final class OpenFile implements java.io.Closeable {
    /** Units per ciphertext read or write: 128 KiB of cleartext, one FUSE request. */
    private static final int BATCH = 32;
    /** Writes and reads of at least this many units are encrypted or decrypted on two cores ({@link CryptoWorkers}). */
    private static final int SPLIT_MIN_UNITS = 16;
    /** Spare cryptors kept per file: more would only hold memory and key schedules. */
    private static final int MAX_SPARES = Math.max(1, Runtime.getRuntime().availableProcessors());

    private final FileChannel ciphertext;
    private final ContentKeys keys;
    private final SectorLayout layout;
    private final ReentrantReadWriteLock rwLock = new ReentrantReadWriteLock();
    private final Lock lock = rwLock.writeLock();
    private final Lock readLock = rwLock.readLock();
    private final UnitBuffers buffers;
    /** Set by the one read that uses {@link #cryptor} and {@link #buffers}; writers hold the write lock instead. */
    private final AtomicBoolean ownCryptorBusy = new AtomicBoolean();
    /** Further decryptors for parallel reads, all opened from {@link #header}; emptied when it changes. */
    private final Deque<Decryptor> spareDecryptors = new ConcurrentLinkedDeque<>();
    private volatile String cleartextPath;
    private long size;
    private UnitCryptor cryptor;
    /** The stored header of {@link #cryptor} (ciphertext, as on disk); null while the file is empty. */
    private byte[] header;
    private boolean closed;

    /**
     * Opens the ciphertext of an existing or new file. A damaged length or header fails here with
     * {@link DamagedFileException}, unless {@code truncate} empties the file first.
     */
    public OpenFile(FileChannel ciphertext, ContentKeys keys, String cleartextPath, boolean truncate) throws IOException {
        this.ciphertext = ciphertext;
        this.keys = keys;
        this.layout = keys.layout();
        this.cleartextPath = cleartextPath;
        this.buffers = new UnitBuffers(BATCH, layout.storedUnitSize() + SectorLayout.MIN_XTS);
        if (truncate) {
            ciphertext.truncate(0);
        }
        long length = ciphertext.size();
        long n = layout.cleartextSize(length);
        if (n < 0) {
            throw new DamagedFileException(cleartextPath, "impossible ciphertext length " + length);
        }
        size = n;
        if (n > 0) {
            cryptor = readHeader();
        }
    }

    private UnitCryptor readHeader() throws IOException {
        byte[] stored = new byte[SectorLayout.HEADER];
        readFully(ByteBuffer.wrap(stored), 0);
        UnitCryptor opened = openHeader(stored);
        header = stored;
        return opened;
    }

    private UnitCryptor openHeader(byte[] stored) throws DamagedFileException {
        try {
            return keys.open(stored);
        } catch (AuthenticationFailedException e) {
            throw new DamagedFileException(cleartextPath, "file header failed authentication");
        }
    }

    public void renamed(String newCleartextPath) {
        this.cleartextPath = newCleartextPath;
    }

    public String cleartextPath() {
        return cleartextPath;
    }

    public long size() {
        readLock.lock();
        try {
            return size;
        } finally {
            readLock.unlock();
        }
    }

    /** Reads from cleartext {@code position}; returns -1 at or past the end. Runs in parallel with other reads. */
    public int read(ByteBuffer dst, long position) throws IOException {
        readLock.lock();
        try {
            checkOpen();
            if (position >= size) {
                return -1;
            }
            int len = (int) Math.min(dst.remaining(), size - position);
            if (len == 0) {
                return 0;
            }
            if (dst.hasArray()) {
                readShared(position, position + len, dst.array(), dst.arrayOffset() + dst.position());
                dst.position(dst.position() + len);
            } else {
                byte[] tmp = new byte[len];
                readShared(position, position + len, tmp, 0);
                dst.put(tmp);
            }
            return len;
        } finally {
            readLock.unlock();
        }
    }

    /** Decrypts under the read lock with the file's own cryptor if no other read uses it, else with a spare. */
    private void readShared(long from, long to, byte[] out, int outOff) throws IOException {
        long first = layout.unitOf(from, size);
        long units = layout.unitOf(to - 1, size) - first + 1;
        if (units >= SPLIT_MIN_UNITS && CryptoWorkers.available()) {
            readSplit(from, SectorLayout.unitStart(first + units / 2), to, out, outOff);
        } else {
            readWithOneCryptor(from, to, out, outOff);
        }
    }

    /**
     * Decrypts {@code [mid, to)} on a {@link CryptoWorkers} thread with a spare cryptor while this
     * thread decrypts {@code [from, mid)}: a large read uses two cores. Runs under the read lock, which
     * the worker's reads of the file's state rely on (the hand-over orders them after it).
     */
    private void readSplit(long from, long mid, long to, byte[] out, int outOff) throws IOException {
        Decryptor other = takeSpare();
        java.util.concurrent.Future<Void> secondHalf = null;
        try {
            secondHalf = CryptoWorkers.submit(() -> {
                readPlain(other.cryptor(), other.buffers(), mid, to, out, outOff + (int) (mid - from));
                return null;
            });
            readWithOneCryptor(from, mid, out, outOff);
            awaitUninterruptibly(secondHalf);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io; // a unit that fails authentication names the cleartext path, as in the first half
            }
            throw new IOException("reading " + cleartextPath + " failed", e.getCause());
        } finally {
            if (secondHalf != null) {
                try {
                    awaitUninterruptibly(secondHalf); // the worker must be done with `out` and its cryptor
                } catch (java.util.concurrent.ExecutionException ignored) {
                    // reported above, or the first half's own failure is on its way out
                }
            }
            returnSpare(other);
        }
    }

    private void readWithOneCryptor(long from, long to, byte[] out, int outOff) throws IOException {
        if (ownCryptorBusy.compareAndSet(false, true)) {
            try {
                readPlain(cryptor, buffers, from, to, out, outOff);
            } finally {
                ownCryptorBusy.set(false);
            }
            return;
        }
        Decryptor spare = takeSpare();
        try {
            readPlain(spare.cryptor(), spare.buffers(), from, to, out, outOff);
        } finally {
            // The header cannot change while this read holds the read lock, so the spare stays valid.
            returnSpare(spare);
        }
    }

    /** Writes all of {@code src} at cleartext {@code position}, filling any gap with zeros. */
    public int write(ByteBuffer src, long position) throws IOException {
        lock.lock();
        try {
            checkOpen();
            int len = src.remaining();
            if (len == 0) {
                return 0;
            }
            byte[] data;
            int off;
            if (src.hasArray()) {
                data = src.array();
                off = src.arrayOffset() + src.position();
            } else {
                data = new byte[len];
                src.duplicate().get(data);
                off = 0;
            }
            modify(Math.max(size, position + len), new Overlay(position, data, off, len));
            src.position(src.position() + len);
            return len;
        } finally {
            lock.unlock();
        }
    }

    /** Appends all of {@code src} at the end, as one step under the file's lock; returns the position written at. */
    public long append(ByteBuffer src) throws IOException {
        lock.lock();
        try {
            long at = size;
            write(src, at);
            return at;
        } finally {
            lock.unlock();
        }
    }

    /** Sets the cleartext size: shrinking drops units, growing stores encrypted zeros (spec 5.2). */
    public void setSize(long newSize) throws IOException {
        lock.lock();
        try {
            checkOpen();
            if (newSize != size) {
                modify(newSize, Overlay.NONE);
            }
        } finally {
            lock.unlock();
        }
    }

    public void force(boolean metaData) throws IOException {
        ciphertext.force(metaData);
    }

    /** The ciphertext channel, for file locks only. */
    public FileChannel ciphertextChannel() {
        return ciphertext;
    }

    /** Closes the ciphertext channel and destroys the file's keys; called when the last channel closes. */
    public void close() throws IOException {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            destroyCryptor();
            buffers.wipe();
            ciphertext.close();
        } finally {
            lock.unlock();
        }
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new java.nio.channels.ClosedChannelException();
        }
    }

    // ---- the write algorithm ----

    private void modify(long newSize, Overlay data) throws IOException {
        long oldSize = size;
        if (newSize == 0) {
            ciphertext.truncate(0);
            destroyCryptor();
            size = 0;
            return;
        }
        boolean rekey = oldSize == 0
                || (!keys.authenticated() && (oldSize < SectorLayout.MIN_XTS || newSize < SectorLayout.MIN_XTS));
        DirtyRange dirty = DirtyRange.of(layout, oldSize, newSize, data, rekey);
        List<OldUnit> oldUnits = readOldCleartext(dirty, oldSize, newSize, data);
        byte[] retagUnit = dirty.retag() >= 0 ? readStored(dirty.retag(), oldSize) : null;
        long oldLast = oldSize == 0 ? -1 : layout.unitCount(oldSize) - 1;
        if (rekey) {
            ContentKeys.Sealed sealed = keys.newFile();
            destroyCryptor();
            cryptor = sealed.cryptor();
            header = sealed.header().clone();
            assert dirty.first() == 0 : "a new file key rewrites every unit";
            // The header goes out in one write with the first batch: a crash can leave the old
            // content or the new one, not a new header alone (a 48-byte file) over old units.
            if (oldSize == 0) {
                // Everything written is new: a failure (full disk) leaves the file empty, as it was.
                restoringLengthOnFailure(0, () -> writeUnits(0, dirty.last(), newSize, data, oldUnits, sealed.header()));
            } else {
                writeUnits(0, dirty.last(), newSize, data, oldUnits, sealed.header());
            }
        } else {
            // New units first, then the ones that existed: a crash leaves old data readable, and a
            // failure while writing the new ones (full disk) leaves the file exactly as it was.
            restoringLengthOnFailure(layout.ciphertextLength(oldSize),
                    () -> writeUnits(Math.max(dirty.first(), oldLast + 1), dirty.last(), newSize, data, oldUnits, null));
            writeUnits(dirty.first(), Math.min(dirty.last(), oldLast), newSize, data, oldUnits, null);
        }
        if (retagUnit != null) {
            retag(dirty.retag(), oldSize, newSize, retagUnit);
        }
        long newLength = layout.ciphertextLength(newSize);
        if (ciphertext.size() > newLength) {
            ciphertext.truncate(newLength);
        }
        size = newSize;
    }

    /** Cleartext of dirty units that the write does not fully cover and that existed before. */
    private List<OldUnit> readOldCleartext(DirtyRange dirty, long oldSize, long newSize, Overlay data) throws IOException {
        List<OldUnit> result = new ArrayList<>();
        long j = dirty.first();
        while (j <= dirty.last() && SectorLayout.unitStart(j) < oldSize) {
            long start = SectorLayout.unitStart(j);
            int len = layout.unitLength(j, newSize);
            if (data.covers(start, start + len)) {
                j = data.lastFullyCoveredUnit(layout, newSize) + 1;
                continue;
            }
            long end = Math.min(start + len, oldSize);
            byte[] old = new byte[(int) (end - start)];
            readPlain(cryptor, buffers, start, end, old, 0);
            result.add(new OldUnit(j, old));
            j++;
        }
        return result;
    }

    /** Runs {@code action}; if it fails, cuts the ciphertext back to {@code oldLength} (nothing before it was touched). */
    private void restoringLengthOnFailure(long oldLength, IoAction action) throws IOException {
        try {
            action.run();
        } catch (IOException e) {
            try {
                ciphertext.truncate(oldLength);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    @FunctionalInterface
    private interface IoAction {
        void run() throws IOException;
    }

    /**
     * Encrypts and stores units {@code [from, to]}; a non-null {@code newHeader} (with {@code from} 0)
     * is stored in the same write as the first batch.
     */
    private void writeUnits(long from, long to, long newSize, Overlay data, List<OldUnit> oldUnits, byte[] newHeader)
            throws IOException {
        long last = layout.unitCount(newSize) - 1;
        for (long batchStart = from; batchStart <= to; batchStart += BATCH) {
            long batchEnd = Math.min(to, batchStart + BATCH - 1);
            byte[] stored = buffers.stored();
            int storedLen;
            if (batchEnd - batchStart + 1 >= SPLIT_MIN_UNITS && CryptoWorkers.available()) {
                storedLen = encryptSplit(batchStart, batchEnd, last, newSize, data, oldUnits, stored);
            } else {
                storedLen = encryptUnits(cryptor, buffers.plain(), batchStart, batchEnd, last, newSize, data, oldUnits, stored, 0);
            }
            if (newHeader != null && batchStart == 0) {
                byte[] headed = new byte[newHeader.length + storedLen];
                System.arraycopy(newHeader, 0, headed, 0, newHeader.length);
                System.arraycopy(stored, 0, headed, newHeader.length, storedLen);
                writeFully(ByteBuffer.wrap(headed), 0);
            } else {
                writeFully(ByteBuffer.wrap(stored, 0, storedLen), layout.storedUnitOffset(batchStart));
            }
        }
    }

    /**
     * Encrypts a large batch on two cores: its second half on a {@link CryptoWorkers} thread with a
     * spare cryptor (free: the write lock keeps reads out), its first half here; returns the stored length.
     */
    private int encryptSplit(long batchStart, long batchEnd, long last, long newSize, Overlay data, List<OldUnit> oldUnits,
            byte[] stored) throws IOException {
        long mid = batchStart + (batchEnd - batchStart + 1) / 2;
        int midOffset = (int) (layout.storedUnitOffset(mid) - layout.storedUnitOffset(batchStart));
        Decryptor second = takeSpare();
        java.util.concurrent.Future<Integer> secondHalf = null;
        try {
            secondHalf = CryptoWorkers.submit(() -> encryptUnits(second.cryptor(), second.buffers().plain(), mid, batchEnd,
                    last, newSize, data, oldUnits, stored, midOffset));
            int firstLen = encryptUnits(cryptor, buffers.plain(), batchStart, mid - 1, last, newSize, data, oldUnits, stored, 0);
            return firstLen + awaitUninterruptibly(secondHalf);
        } catch (java.util.concurrent.ExecutionException e) {
            // An IOException, so that the callers' rollback (restoringLengthOnFailure) runs.
            throw new IOException("encrypting " + cleartextPath + " failed", e.getCause());
        } finally {
            if (secondHalf != null) {
                try {
                    awaitUninterruptibly(secondHalf); // the worker must be done with `stored` and its cryptor
                } catch (java.util.concurrent.ExecutionException ignored) {
                    // reported above, or the first half's own failure is on its way out
                }
            }
            returnSpare(second);
        }
    }

    /**
     * The task's result, waiting through interrupts (the interrupt is kept for the caller): an
     * interrupted wait must not leave the worker writing into buffers the caller reuses.
     */
    private static <T> T awaitUninterruptibly(java.util.concurrent.Future<T> task) throws java.util.concurrent.ExecutionException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private Decryptor takeSpare() throws DamagedFileException {
        Decryptor spare = spareDecryptors.pollFirst();
        if (spare == null) {
            spare = new Decryptor(openHeader(header), new UnitBuffers(BATCH, layout.storedUnitSize() + SectorLayout.MIN_XTS));
        }
        return spare;
    }

    /** Keeps a spare for the next read or write, up to one per core; destroys the rest. */
    private void returnSpare(Decryptor spare) {
        if (spareDecryptors.size() < MAX_SPARES) {
            spareDecryptors.addFirst(spare);
        } else {
            spare.cryptor().destroy();
            spare.buffers().wipe();
        }
    }

    /**
     * Encrypts units {@code [first, lastOfRange]} with {@code cryptor} into {@code stored} from
     * {@code storedOff}, using {@code plain} as scratch for units the write covers only in part;
     * returns the bytes stored.
     */
    private int encryptUnits(UnitCryptor cryptor, byte[] plain, long first, long lastOfRange, long last, long newSize,
            Overlay data, List<OldUnit> oldUnits, byte[] stored, int storedOff) {
        int storedLen = storedOff;
        for (long j = first; j <= lastOfRange; j++) {
            long start = SectorLayout.unitStart(j);
            int len = layout.unitLength(j, newSize);
            if (data.covers(start, start + len)) {
                // The write holds the whole unit: encrypt straight from the caller's bytes.
                cryptor.encrypt(j, j == last, data.data(), data.offset() + (int) (start - data.position()), len,
                        stored, storedLen);
                storedLen += len + layout.overhead();
                continue;
            }
            java.util.Arrays.fill(plain, 0, len, (byte) 0);
            for (OldUnit old : oldUnits) {
                if (old.index() == j) {
                    System.arraycopy(old.cleartext(), 0, plain, 0, old.cleartext().length);
                }
            }
            data.copyInto(start, len, plain);
            cryptor.encrypt(j, j == last, plain, 0, len, stored, storedLen);
            storedLen += len + layout.overhead();
        }
        return storedLen - storedOff;
    }

    private void retag(long unit, long oldSize, long newSize, byte[] stored) throws IOException {
        long oldLast = layout.unitCount(oldSize) - 1;
        long newLast = layout.unitCount(newSize) - 1;
        try {
            cryptor.retag(unit, unit == oldLast, unit == newLast, stored, 0, stored.length);
        } catch (AuthenticationFailedException e) {
            throw new DamagedFileException(cleartextPath, "unit " + unit + " failed authentication");
        }
        writeFully(ByteBuffer.wrap(stored), layout.storedUnitOffset(unit));
    }

    private byte[] readStored(long unit, long n) throws IOException {
        byte[] stored = new byte[layout.storedUnitLength(unit, n)];
        readFully(ByteBuffer.wrap(stored), layout.storedUnitOffset(unit));
        return stored;
    }

    // ---- reading ----

    /**
     * Decrypts cleartext {@code [from, to)} (inside the current size) into {@code out} with {@code cryptor}
     * and its scratch {@code buffers}, which no other thread uses meanwhile.
     */
    private void readPlain(UnitCryptor cryptor, UnitBuffers buffers, long from, long to, byte[] out, int outOff)
            throws IOException {
        long first = layout.unitOf(from, size);
        long last = layout.unitOf(to - 1, size);
        long fileLast = layout.unitCount(size) - 1;
        for (long batchStart = first; batchStart <= last; batchStart += BATCH) {
            long batchEnd = Math.min(last, batchStart + BATCH - 1);
            long ctStart = layout.storedUnitOffset(batchStart);
            int ctLen = (int) (layout.storedUnitOffset(batchEnd) + layout.storedUnitLength(batchEnd, size) - ctStart);
            byte[] stored = buffers.stored();
            readFully(ByteBuffer.wrap(stored, 0, ctLen), ctStart);
            byte[] plain = buffers.plain();
            int storedOff = 0;
            for (long j = batchStart; j <= batchEnd; j++) {
                int len = layout.unitLength(j, size);
                long unitStart = SectorLayout.unitStart(j);
                // A unit the read covers entirely is decrypted straight into the caller's array.
                boolean direct = from <= unitStart && unitStart + len <= to;
                byte[] target = direct ? out : plain;
                int targetOff = direct ? outOff + (int) (unitStart - from) : 0;
                try {
                    cryptor.decrypt(j, j == fileLast, stored, storedOff, len + layout.overhead(), target, targetOff);
                } catch (AuthenticationFailedException e) {
                    throw new DamagedFileException(cleartextPath,
                            "unit " + j + " failed authentication (bytes " + SectorLayout.unitStart(j) + ".."
                                    + (SectorLayout.unitStart(j) + len - 1) + ")");
                }
                storedOff += len + layout.overhead();
                if (direct) {
                    continue;
                }
                long copyFrom = Math.max(from, unitStart);
                long copyTo = Math.min(to, unitStart + len);
                System.arraycopy(plain, (int) (copyFrom - unitStart), out, outOff + (int) (copyFrom - from),
                        (int) (copyTo - copyFrom));
            }
        }
    }

    private void readFully(ByteBuffer dst, long position) throws IOException {
        long pos = position;
        while (dst.hasRemaining()) {
            int n = ciphertext.read(dst, pos);
            if (n < 0) {
                throw new DamagedFileException(cleartextPath, "ciphertext ends early at byte " + pos);
            }
            pos += n;
        }
    }

    private void writeFully(ByteBuffer src, long position) throws IOException {
        long pos = position;
        while (src.hasRemaining()) {
            pos += ciphertext.write(src, pos);
        }
    }

    /** Destroys the file's cryptor and every spare; under the write lock, so no read is using one. */
    private void destroyCryptor() {
        if (cryptor != null) {
            cryptor.destroy();
            cryptor = null;
        }
        header = null;
        for (Decryptor spare; (spare = spareDecryptors.pollFirst()) != null; ) {
            spare.cryptor().destroy();
            spare.buffers().wipe();
        }
    }

    private record OldUnit(long index, byte[] cleartext) {}

    /** A cryptor and its scratch buffers for one read at a time. */
    private record Decryptor(UnitCryptor cryptor, UnitBuffers buffers) {}
}
