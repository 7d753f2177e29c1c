package dev.coffer.core.content;

import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.crypto.Bytes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
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
 * first and re-tag the old last unit after, so a crash mid-append never loses fsynced data; and
 * because every entry point must first wait for a write running behind (below); and the read path
 * keeps a file's sequential reader fed by its read-ahead.
 *
 * <p>Thread-safe: writes, truncates and close hold the file's write lock; reads share its read lock
 * and run in parallel (a mount's workers decrypt the kernel's read-ahead requests on every core).
 * A cryptor is not thread-safe, so a read uses the file's own cryptor when it is free, and
 * otherwise a second cryptor opened from the same header ({@link Decryptor}), kept for the next read.
 *
 * <p>Decrypt-ahead: reads of at least {@link ReadAhead#MIN_UNITS} units that continue a sequential
 * stream have the next batches read and decrypted by reader threads with spare cryptors
 * ({@link ReadAhead}); every change and close first waits for and drops them, so no read sees
 * content from before a write.
 *
 * <p>Write-behind (SIV_XTSHMAC only): an append of at least {@link #WRITE_BEHIND_MIN_UNITS} new units
 * that needs no old unit read back returns once its units are encrypted; their ciphertext write ({@link PendingWrite})
 * runs on a writer thread while the caller encrypts the next batch. At most one write is pending.
 * Once the JVM's exit has begun ({@link ExitWaits}), a write is no longer left behind: it runs on the
 * caller's thread before the call returns, since the exit's wait may have ended already.
 * Every other operation (read, write, truncate, force, close) first waits for it, so reads always
 * see it. If it failed (a full disk), the file is cut back to what it was before that write, and the
 * error is thrown by that next operation, which itself does nothing; {@code force}, {@code close}
 * and a zero-length write report it too, so a caller that checks them never misses it. That next
 * operation may come from another channel of the file than the one that wrote: so each undone
 * failure is also counted ({@link #undoneFailures}), and every channel reports the ones after those
 * it has seen at its own flush points (like the kernel's errseq for a failed writeback). Such a
 * failure is thrown as an {@link EarlierWriteLostException} once the call that started the write
 * has returned; a failure of a batch found by the same call (it writes its next batch) is that
 * call's own failure, thrown as it is and not counted: that call reports failure, nothing it
 * acknowledged is lost.
 *
 * <p>Queued appends (SIV_XTSHMAC, a store with room to spare): a streaming append of one batch
 * ({@link #WRITE_BEHIND_MIN_UNITS} to {@link #BATCH} new units after a last unit this object wrote)
 * is copied into the file's {@link AppendQueue} and acknowledged at once; the queue's runner
 * encrypts and writes the queued appends in order, so that a FUSE writer's next request is not held
 * up by the encryption of its last one. Up to {@link AppendQueue#DEPTH} appends are acknowledged
 * before they are written, so they are queued only while the store has {@link #QUEUE_HEADROOM} free
 * beyond them: a full disk is met by the paths above, which refuse the next write. A queued append
 * that fails anyway (an I/O error) is handled like a failed write behind: the file is cut back to
 * the size before it, the appends queued after it are dropped, and the loss is counted and thrown
 * as an {@link EarlierWriteLostException} by the next call that drains. While appends are queued,
 * the file's append state is the runner's: every other call first waits for the queue. Once the
 * JVM's exit has begun nothing more is queued: the call waits for the queue and writes itself.
 */
public final class OpenFile implements java.io.Closeable {
    /** How a file asks its store for the bytes it may still write ({@code statvfs}'s available blocks). */
    @FunctionalInterface
    public interface FreeSpace {
        long usableBytes() throws IOException;
    }

    /**
     * Appends are queued only while the store has this much free beyond them: room a concurrent writer
     * would have to fill within the milliseconds a queue takes to drain before a queued append fails.
     */
    static final long QUEUE_HEADROOM = 256L << 20;
    /** Ciphertext queued before the store's free space is asked again. */
    private static final long QUEUE_CREDIT = 4L << 20;
    /** Units per ciphertext read or write: 128 KiB of cleartext, one FUSE request. */
    static final int BATCH = 32;
    /** Appends of fewer new units are written at once: handing them to a thread costs more than it saves. */
    static final int WRITE_BEHIND_MIN_UNITS = BATCH / 2;
    /**
     * Only SIV_XTSHMAC writes behind: its batch takes ~86 us to encrypt, longer than its write
     * (~40 us), so the handover hides. SIV_XTS encrypts a batch in ~15 us and would wait for every
     * write plus two thread wake-ups: measured 1.7x slower with one other busy process on 2 cores.
     */
    private final boolean writeBehind;
    /** Spare cryptors kept per file (parallel reads and the read-ahead's jobs): more would only hold memory and key schedules. */
    private static final int MAX_SPARES = Math.max(1, Runtime.getRuntime().availableProcessors()) + ReadAhead.DEPTH;

    private final InterruptSafeChannel ciphertext;
    private final ContentKeys keys;
    private final SectorLayout layout;
    private final ReentrantReadWriteLock rwLock = new ReentrantReadWriteLock();
    /** The failure of a write that ran behind, undone by a reader's wait and not yet thrown to a writer. */
    private IOException undoneWriteFailure;
    /** The latest failure of a write that ran behind and was undone; written before the count. */
    private volatile IOException lastUndoneFailure;
    private final Object forceFailureLock = new Object();
    private long forceFailures; // guarded by forceFailureLock
    private IOException lastForceFailure; // guarded by forceFailureLock
    /** How many writes that ran behind have failed and been undone since the file was opened. */
    private volatile long undoneFailures;
    private final Lock lock = rwLock.writeLock();
    private final Lock readLock = rwLock.readLock();
    private final UnitBuffers buffers;
    /** Decrypt-ahead for sequential reads: shared by every read; cancelled under the write lock. */
    private final ReadAhead readAhead;
    /** Streaming appends acknowledged before they are written, or null (no SIV_XTSHMAC, or no store to ask). */
    private final AppendQueue appendQueue;
    private final FreeSpace freeSpace;
    /** Ciphertext bytes that may still be queued before {@link #freeSpace} is asked again. */
    private long queueCredit;

    /**
     * Set once a write, append or size change succeeded through any channel since the file was
     * opened: only such a file's content can be lost when its ciphertext is replaced or deleted
     * underneath, so only such a file is rescued at its last close.
     */
    private volatile boolean changed;

    /** Whether queued appends are running (for tests). */
    boolean appendsRunning() {
        return appendQueue != null && appendQueue.isRunning();
    }

    /** Whether the read-ahead holds batch buffers (for tests: a file read to its end holds none). */
    boolean holdsReadAheadBuffers() {
        return readAhead.holdsBuffers();
    }

    /** Batches the read-ahead has served (for tests). */
    long readAheadServed() {
        return readAhead.served();
    }
    /** Set by the one read that uses {@link #cryptor} and {@link #buffers}; writers hold the write lock instead. */
    private final AtomicBoolean ownCryptorBusy = new AtomicBoolean();
    /** Further decryptors for parallel reads, all opened from {@link #header}; emptied when it changes. */
    private final Deque<Decryptor> spareDecryptors = new ConcurrentLinkedDeque<>();
    private volatile String cleartextPath;
    private long size;
    private UnitCryptor cryptor;
    /**
     * The stored header of {@link #cryptor} (ciphertext, as on disk); null while the file is empty,
     * unless a first write failed (then the header it wrote: see {@link #cutOwed}).
     */
    private byte[] header;
    private boolean closed;
    /** Set once {@link #holdsStoredHeader} found another header (or units) on disk: changes are refused. */
    private volatile boolean rewrittenUnderneath;
    /** The ciphertext write still running behind, or null; set under the write lock, read by readers. */
    private volatile PendingWrite pending;
    /**
     * SIV_XTSHMAC only (else null; made on the first write): the stored bytes of the file's last unit
     * as this object last wrote them, so that an append re-tags it without reading it back; and the
     * array it is swapped with.
     */
    private byte[] lastUnit;
    private byte[] previousLastUnit;
    /** Index of the unit in {@link #lastUnit} if it is the file's current last unit as stored, else -1. */
    private long lastUnitIndex = -1;
    private int lastUnitLength;
    /**
     * The cleartext of the unit in {@link #lastUnit}, valid with it (recorded together), so that a
     * write extending a partial last unit (tar's next record) need not read it back and decrypt it.
     * Cleartext in the heap, like the scratch buffers: wiped at close.
     */
    private byte[] lastPlain;
    /** The new last unit recorded by {@link #encryptUnits} during the current change, or -1. */
    private long recordedLastUnit = -1;
    /** The largest buffer an {@link InPlaceBackup} took for this file, in bytes (under the write lock). */
    private int largestInPlaceBackup;
    /**
     * Set when the cut that undoes a failed change failed too (EIO): stored bytes may then lie past
     * the length of {@link #size} (after a first write, past an empty file: they start with the
     * cached {@link #header}). The next change takes the path that ends with the cut; an empty file's
     * first write, which otherwise never cuts (no syscall for it on the normal path), cuts before it
     * writes; cleared once a change has succeeded. {@link #holdsStoredHeader} takes such bytes as this
     * object's own.
     */
    private boolean cutOwed;
    /**
     * The stored length right after the latest failed undo-cut ({@code fstat} on that failure path
     * only), or -1 if unknown: with {@link #cutOwed}, the one length besides its size's that is this
     * object's own; any other is another program's rewrite (a sync client applying a longer version
     * with the same header in place must not pass for leftovers).
     */
    private long leftoverLength = -1;
    /**
     * Set while a gathering append writes its buffers one by one: the batch one leaves running
     * behind is not answered yet (the call has not returned), so its failure stays the call's own,
     * and none is queued (a queued append counts as answered).
     */
    private boolean answersDeferred;

    /**
     * Opens the ciphertext of an existing or new file. A damaged length or header fails here with
     * {@link DamagedFileException}, unless {@code truncate} empties the file first.
     */
    public OpenFile(FileChannel ciphertext, ContentKeys keys, String cleartextPath, boolean truncate) throws IOException {
        this(ciphertext, keys, cleartextPath, truncate, null, buffersFor(keys.layout()));
    }

    /**
     * As {@link #OpenFile(FileChannel, ContentKeys, String, boolean)}, queuing streaming appends while
     * {@code freeSpace} (the ciphertext's store) says there is room to spare.
     */
    public OpenFile(FileChannel ciphertext, ContentKeys keys, String cleartextPath, boolean truncate, FreeSpace freeSpace)
            throws IOException {
        this(ciphertext, keys, cleartextPath, truncate, freeSpace, buffersFor(keys.layout()));
    }

    /** As the public constructors, with the file's scratch buffers given (tests: buffers that fail to be made). */
    OpenFile(FileChannel ciphertext, ContentKeys keys, String cleartextPath, boolean truncate, FreeSpace freeSpace,
            UnitBuffers buffers) throws IOException {
        this.ciphertext = InterruptSafeChannel.wrap(ciphertext); // shared by every handle: no caller's interrupt may close it
        this.freeSpace = freeSpace;
        this.appendQueue = freeSpace != null && keys.authenticated()
                ? new AppendQueue(this::appendQueued, BATCH * SectorLayout.SECTOR)
                : null;
        this.keys = keys;
        this.layout = keys.layout();
        this.cleartextPath = cleartextPath;
        this.buffers = buffers;
        this.writeBehind = keys.authenticated();
        this.readAhead = new ReadAhead(ciphertext, layout, BATCH, this::decryptAhead);
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

    /** The scratch buffers an open file of {@code layout} uses. */
    static UnitBuffers buffersFor(SectorLayout layout) {
        return new UnitBuffers(BATCH, layout.storedUnitSize() + SectorLayout.MIN_XTS);
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

    /** Whether a write, append or size change succeeded since the file was opened (by any of its channels). */
    public boolean changed() {
        return changed;
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
        lockForReading();
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
                try {
                    readShared(position, position + len, tmp, 0);
                    dst.put(tmp);
                } finally {
                    Bytes.wipe(tmp); // cleartext, also when the read failed part-way
                }
            }
            return len;
        } finally {
            readLock.unlock();
        }
    }

    /** Takes the read lock once no write runs behind or is queued (a failure of it is kept for the writer). */
    private void lockForReading() throws IOException {
        readLock.lock();
        // Appends are queued under the write lock: while this read holds the read lock, none starts.
        if (pending == null && (appendQueue == null || !appendQueue.busy())) {
            return;
        }
        readLock.unlock();
        lock.lock();
        try {
            settle(); // a failure stays for the writer
            readLock.lock(); // taken before the write lock is released: no write can start in between
        } finally {
            lock.unlock();
        }
    }

    /** Decrypts under the read lock with the file's own cryptor if no other read uses it, else with a spare. */
    private void readShared(long from, long to, byte[] out, int outOff) throws IOException {
        if (ownCryptorBusy.compareAndSet(false, true)) {
            try {
                readPlain(cryptor, buffers, from, to, out, outOff, true);
            } finally {
                ownCryptorBusy.set(false);
            }
            return;
        }
        readAhead.parallelReadsSeen();
        Decryptor spare = takeSpare();
        try {
            readPlain(spare.cryptor(), spare.buffers(), from, to, out, outOff, true);
        } finally {
            // The header cannot change while this read holds the read lock, so the spare stays valid.
            returnSpare(spare);
        }
    }

    /**
     * Writes all of {@code src} at cleartext {@code position}, filling any gap with zeros. A write of
     * nothing waits for a write running behind and throws its failure, like POSIX allows a
     * zero-length write to: a frontend collects such errors with it (FUSE's flush, at each close)
     * without the cost of {@link #force}.
     */
    public int write(ByteBuffer src, long position) throws IOException {
        return write(src, position, Long.MAX_VALUE);
    }

    /**
     * As {@link #write(ByteBuffer, long)}, for a caller that has been told of {@code failuresSeen}
     * lost writes ({@link #undoneFailures()}): a non-empty write is refused with the latest loss it
     * has not been told of (another caller may have taken it first), checked under the file's lock
     * (so no other call can take a loss between the check and this call's own wait for the write
     * running behind, which throws a loss not counted yet), so that no caller writes on past a range
     * that was undone without knowing. Not a wait itself: a streaming append's encryption still
     * overlaps the previous batch's write.
     */
    public int write(ByteBuffer src, long position, long failuresSeen) throws IOException {
        lock.lock();
        try {
            checkOpen();
            int len = src.remaining();
            if (len == 0) {
                drain();
                return 0;
            }
            if (position > layout.maxCleartextSize() - len) { // also where position + len would overflow
                throw new FileTooLargeException(cleartextPath);
            }
            if (undoneFailures > failuresSeen) {
                // Counted means undone already; told now, so no later drain throws it to this caller again.
                undoneWriteFailure = null;
                IOException lost = lastUndoneFailure;
                if (lost instanceof EarlierWriteLostException e) {
                    throw e.copy();
                }
                EarlierWriteLostException wrapped = new EarlierWriteLostException(lost); // never expected: counted ones are typed
                wrapped.counted(undoneFailures);
                throw wrapped;
            }
            byte[] data;
            int off;
            boolean copied = !src.hasArray();
            if (copied) {
                data = new byte[len];
                src.duplicate().get(data);
                off = 0;
            } else {
                data = src.array();
                off = src.arrayOffset() + src.position();
            }
            try {
                modify(Math.max(size, position + len), new Overlay(position, data, off, len));
                changed = true;
            } finally {
                if (copied) {
                    Bytes.wipe(data); // our copy of the caller's cleartext
                }
            }
            src.position(src.position() + len);
            return len;
        } finally {
            lock.unlock();
        }
    }

    /** Appends all of {@code src} at the end, as one step under the file's lock; returns the position written at. */
    public long append(ByteBuffer src) throws IOException {
        return append(src, Long.MAX_VALUE);
    }

    /** As {@link #append(ByteBuffer)}, refused as {@link #write(ByteBuffer, long, long)} says. */
    public long append(ByteBuffer src, long failuresSeen) throws IOException {
        lock.lock();
        try {
            long at = size;
            write(src, at, failuresSeen);
            return at;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Appends {@code srcs[offset .. offset + length)} at the end, one after the other, under one hold
     * of the file's lock, so no other append or write lands between them: a gathering write's record
     * stays contiguous, as writev(2) on an O_APPEND descriptor. Returns the position written at;
     * refused as {@link #write(ByteBuffer, long, long)} says. Up to one batch (128 KiB, a record of a
     * log) is joined and written as one write, so a failure (a full disk) leaves nothing of it, as
     * for any write, and its partial last unit is rewritten once, not once per buffer. A larger one
     * is appended buffer by buffer: a failure of a later buffer leaves the earlier ones appended (a
     * short write), never another writer's bytes in between.
     */
    public long append(ByteBuffer[] srcs, int offset, int length, long failuresSeen) throws IOException {
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            total += srcs[i].remaining();
        }
        lock.lock();
        try {
            long at = size;
            if (length == 1) {
                write(srcs[offset], at, failuresSeen); // nothing to join
                return at;
            }
            if (total <= (long) BATCH * SectorLayout.SECTOR) {
                byte[] joined = new byte[(int) total];
                try {
                    ByteBuffer into = ByteBuffer.wrap(joined);
                    for (int i = offset; i < offset + length; i++) {
                        into.put(srcs[i].duplicate());
                    }
                    write(into.flip(), at, failuresSeen);
                } finally {
                    Bytes.wipe(joined); // our copy of the caller's cleartext
                }
                for (int i = offset; i < offset + length; i++) {
                    srcs[i].position(srcs[i].limit());
                }
                return at;
            }
            // The batch a buffer leaves running behind stays this call's until it returns: its
            // failure, found by the next buffer's write, is this call's own, not an earlier write lost.
            answersDeferred = true;
            try {
                for (int i = offset; i < offset + length; i++) {
                    if (srcs[i].hasRemaining()) { // an empty one would be a flush point (it drains)
                        write(srcs[i], size, failuresSeen);
                    }
                }
            } catch (IOException | RuntimeException | Error e) {
                awaitOwnPending(e);
                throw e;
            } finally {
                answersDeferred = false;
            }
            PendingWrite left = pending;
            if (left != null) {
                left.markAnswered(); // this call returns while its last batch is written
            }
            return at;
        } finally {
            lock.unlock();
        }
    }

    /**
     * After a gathering append failed: waits for the batch an earlier buffer of it left running
     * behind, if any (a later buffer failed before it waited); a failure of that batch is undone
     * and added to {@code e}, as this call's own.
     */
    private void awaitOwnPending(Throwable e) {
        PendingWrite own = pending;
        if (own != null && !own.answered()) {
            pending = null;
            try {
                finish(own);
            } catch (IOException | RuntimeException | Error failure) {
                e.addSuppressed(failure);
            }
        }
    }

    /** Sets the cleartext size: shrinking drops units, growing stores encrypted zeros (spec 5.2). */
    public void setSize(long newSize) throws IOException {
        lock.lock();
        try {
            checkOpen();
            if (newSize > layout.maxCleartextSize()) {
                throw new FileTooLargeException(cleartextPath);
            }
            if (newSize != size) {
                modify(newSize, Overlay.NONE);
                changed = true;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Cuts the file to {@code newSize} if it is longer; never grows it (FileChannel.truncate). The
     * size is compared and the cut made under one hold of the file's lock: a check outside it let a
     * shorter truncate land in between, and this one then grew the file back with zeros. Returns
     * whether it cut.
     */
    public boolean truncate(long newSize) throws IOException {
        lock.lock();
        try {
            checkOpen();
            if (newSize >= size) {
                return false;
            }
            // A write behind or queued append that failed is undone and thrown by modify before it
            // changes anything, so the cut never lands on a size other than the one compared here.
            modify(newSize, Overlay.NONE);
            changed = true;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for a write running behind (throwing its failure), then forces the ciphertext to storage.
     * A failed force is also counted ({@link #forceFailures}): every handle shares the one ciphertext
     * descriptor, and Linux reports a writeback error once per descriptor, so the other handles would
     * never hear of it from their own fsync.
     */
    public void force(boolean metaData) throws IOException {
        lock.lock();
        try {
            checkOpen();
            drain();
        } finally {
            lock.unlock();
        }
        try {
            ciphertext.force(metaData);
        } catch (IOException e) {
            synchronized (forceFailureLock) {
                lastForceFailure = e;
                forceFailures++;
            }
            throw e;
        }
    }

    /** How many forces of this file have failed since it was opened (a channel's starting point). */
    public long forceFailures() {
        synchronized (forceFailureLock) {
            return forceFailures;
        }
    }

    /** The latest failed force if more than {@code seen} have failed, else null. */
    public IOException forceFailureAfter(long seen) {
        synchronized (forceFailureLock) {
            return forceFailures > seen ? lastForceFailure : null;
        }
    }

    /**
     * Runs {@code change} on the ciphertext file under the file's lock once no write runs behind: a
     * time set on the ciphertext after the last write (utimens, as {@code cp -a} and {@code rsync -a}
     * do before close) must not be overwritten by a write that lands after it. If that write failed,
     * it is undone and its failure kept for the next call that changes the file; {@code change} runs
     * either way (also after close, when nothing runs behind any more).
     */
    public void whenWritesLanded(IoAction change) throws IOException {
        lock.lock();
        try {
            settle(); // a failure stays for the writer; after close nothing runs behind any more
            change.run();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes through {@code writable} (same file, opened for writing) from now on: the shared channel
     * was opened read-only (the store denied write access then) and a writer joins. Closes
     * {@code writable} and throws if this file is closed.
     */
    public void useWritable(FileChannel writable) throws IOException {
        lock.lock();
        try {
            if (closed) {
                writable.close();
                throw new ClosedChannelException();
            }
            ciphertext.useWritable(writable);
        } finally {
            lock.unlock();
        }
    }

    /** The ciphertext channel, for file locks only. */
    public FileChannel ciphertextChannel() {
        return ciphertext;
    }

    /**
     * Whether the ciphertext still starts with this file's header (one read of 48 bytes) and is as long
     * as this object's size makes it (one {@code fstat}): false once another program rewrote the file
     * in place (a sync client: same inode), with a new header, whose units this object's cryptor and
     * cached last unit no longer fit, or with the same header and another length (another device
     * appended to or cut the file, applied with rsync {@code --inplace}), whose size and last unit this
     * object's are not. A same-length rewrite with the same header goes unseen. An empty file's header
     * is not used (its next write makes a new one): then the ciphertext must still hold no unit (the
     * {@code fstat} alone). Bytes a failed change left past this object's length because the cut that
     * undoes it failed too ({@link #cutOwed}) are its own, not another program's, if the stored length
     * is exactly the one noted right after that failure ({@link #leftoverLength}; any other length is
     * another device's version applied in place); for an empty file they also start with the header
     * the failed first write made, which stays cached. Under the read lock,
     * once no write runs behind: only a write changes the header or the length. Once false, this
     * object refuses every change: it would encrypt units of the new content under the old header's
     * key, or re-tag another device's last unit, destroying them.
     */
    public boolean holdsStoredHeader() throws IOException {
        lockForReading();
        try {
            checkOpen();
            if (size == 0) {
                long length = ciphertext.size();
                boolean empty = layout.cleartextSize(length) <= 0
                        || cutOwed && length == leftoverLength && startsWithOwnHeader(length);
                rewrittenUnderneath |= !empty;
                return empty;
            }
            ByteBuffer stored = readStoredHeader();
            long length = ciphertext.size();
            // After an undo whose cut failed, exactly the length it left is this object's own too.
            boolean lengthFits = length == layout.ciphertextLength(size) || cutOwed && length == leftoverLength;
            boolean holds = !stored.hasRemaining() && java.util.Arrays.equals(stored.array(), header)
                    && lengthFits; // else appended or cut elsewhere
            rewrittenUnderneath |= !holds;
            return holds;
        } finally {
            readLock.unlock();
        }
    }

    /** Up to the first {@link SectorLayout#HEADER} bytes of the ciphertext (fewer if it is shorter: the buffer's position). */
    private ByteBuffer readStoredHeader() throws IOException {
        ByteBuffer stored = ByteBuffer.allocate(SectorLayout.HEADER);
        while (stored.hasRemaining() && ciphertext.read(stored, stored.position()) >= 0) {
            // reads until the header is complete or the file ends
        }
        return stored;
    }

    /**
     * For an empty file that owes a cut: whether the {@code length} stored bytes are what a failed
     * first write left, i.e. start with (a prefix of) the header it wrote, which stays cached. A first
     * write that owes the cut makes it before a new header goes out, so leftovers always start with
     * the cached header; without one, this object never wrote to the file and the bytes are foreign.
     */
    private boolean startsWithOwnHeader(long length) throws IOException {
        if (header == null) {
            return false;
        }
        ByteBuffer stored = readStoredHeader();
        int n = stored.position();
        return n == Math.min(length, SectorLayout.HEADER)
                && java.util.Arrays.equals(stored.array(), 0, n, header, 0, n);
    }

    /**
     * Waits for a write running behind, closes the ciphertext channel and destroys the file's keys;
     * called when the last channel closes. Throws the failure of the write that ran behind, if any,
     * after closing.
     */
    public void close() throws IOException {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            readAhead.drop(); // before the channel closes under a job in flight; zeroes its cleartext
            IOException failure = null;
            try {
                drain();
            } catch (IOException e) {
                failure = e;
            }
            destroyCryptor();
            buffers.wipe(); // the stored last-unit copies hold ciphertext only: nothing to wipe there
            Bytes.wipe(lastPlain);
            if (appendQueue != null) {
                appendQueue.release(); // idle after the drain: its buffers were wiped after each append
            }
            try {
                ciphertext.close();
            } catch (IOException e) {
                if (failure == null) {
                    throw e;
                }
                failure.addSuppressed(e);
            }
            if (failure != null) {
                throw failure;
            }
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
        if (rewrittenUnderneath) {
            throw new IOException(cleartextPath + ": rewritten by another program (a sync client) since it was opened here;"
                    + " reopen it");
        }
        // A job in flight would hand content from before this change to the next read.
        readAhead.drop();
        if (queueAppend(newSize, data)) {
            return;
        }
        settleQueue(); // from here on the append state is this call's
        if (undoneWriteFailure != null) {
            drain(); // throws it: nothing of this call is written with a size from before the loss
        }
        long oldSize = size;
        boolean rekey = oldSize == 0
                || (!keys.authenticated() && (oldSize < SectorLayout.MIN_XTS || newSize < SectorLayout.MIN_XTS));
        long oldLast = oldSize == 0 ? -1 : layout.unitCount(oldSize) - 1;
        DirtyRange dirty = newSize == 0 ? null : DirtyRange.of(layout, oldSize, newSize, data, rekey);
        long cachedLastUnit = lastUnitIndex;
        // From here until this change succeeds, the cached last unit may not be what is stored.
        lastUnitIndex = -1;
        recordedLastUnit = -1;
        if (dirty != null && !rekey && !cutOwed && dirty.first() > oldLast && retagsFromCopy(dirty.retag(), cachedLastUnit, oldSize)) {
            appendUnits(oldSize, newSize, data, dirty);
            return;
        }
        drain();
        if (newSize == 0) {
            ciphertext.truncate(0);
            destroyCryptor();
            size = 0;
            cutOwed = false;
            return;
        }
        List<OldUnit> oldUnits = readOldCleartext(dirty, oldSize, newSize, data, cachedLastUnit);
        byte[] retagUnit = dirty.retag() >= 0 ? readStored(dirty.retag(), oldSize) : null;
        // A shrink cuts the ciphertext last, inside the steps a failure undoes: a cut that fails (EIO)
        // after the new last unit was rewritten shorter (or under a new key) in the old unit's place
        // would leave that unit unauthentic (SIV_XTS: garbage) inside the old length.
        long newLength = layout.ciphertextLength(newSize);
        IoAction cut = () -> {
            if (ciphertext.size() > newLength) {
                ciphertext.truncate(newLength);
            }
        };
        try {
            if (rekey) {
                if (oldSize == 0 && cutOwed) {
                    // What a failed undo left behind the empty file goes before a new header is made:
                    // leftovers then always start with the cached header (holdsStoredHeader).
                    ciphertext.truncate(0);
                    cutOwed = false;
                }
                ContentKeys.Sealed sealed = keys.newFile();
                assert dirty.first() == 0 : "a new file key rewrites every unit";
                // The header goes out in one write with the first batch: a crash can leave the old
                // content or the new one, not a new header alone (a 48-byte file) over old units.
                if (oldSize == 0) {
                    destroyCryptor();
                    cryptor = sealed.cryptor();
                    header = sealed.header().clone();
                    // Everything written is new: a failure (full disk) leaves the file empty, as it was.
                    restoringOnFailure(0,
                            () -> writeUnits(0, dirty.last(), newSize, data, oldUnits, sealed.header(), null), null);
                } else {
                    rekeyRestoringOnFailure(oldSize, newSize, sealed, () -> {
                        writeUnits(0, dirty.last(), newSize, data, oldUnits, sealed.header(), null);
                        cut.run();
                    });
                }
            } else {
                // New units first, then the ones that existed, batch by batch upward, then the old
                // last unit's new tag: a crash leaves old data readable. A failure at any step (full
                // disk, EIO) cuts the new units off again and puts back the stored bytes of the batch
                // being rewritten in place when it failed (a short write on a full disk, or any
                // overwrite on a copy-on-write store, leaves a unit half new) and of the re-tagged
                // unit. Only that batch is kept (memory: one batch, not the whole range of the call),
                // so in-place batches that completed before it stay written: whole units, authentic
                // at the old size, because none of them is the old last unit (the highest unit
                // rewritten in place, so in the last in-place batch) and each is a full unit,
                // last in neither size. The file then reads everywhere with its old size, each
                // unit holding its old or its new content; a change that rewrites at most one batch
                // of existing units (batches count from dirty.first()) is undone exactly.
                long oldLength = layout.ciphertextLength(oldSize);
                long inPlaceLast = Math.min(dirty.last(), oldLast);
                InPlaceBackup inPlace = new InPlaceBackup(oldSize,
                        inPlaceLast == oldLast && copyHolds(oldLast, cachedLastUnit, oldSize)
                                ? java.util.Arrays.copyOf(lastUnit, lastUnitLength) : null);
                byte[] oldRetagUnit = retagUnit == null ? null : retagUnit.clone();
                long newUnitsAt = layout.storedUnitOffset(oldLast + 1);
                byte[] mergedTail = dirty.last() > oldLast ? mergedTail(oldLast, oldSize, cachedLastUnit) : null;
                restoringOnFailure(oldLength, () -> {
                    writeUnits(Math.max(dirty.first(), oldLast + 1), dirty.last(), newSize, data, oldUnits, null, null);
                    writeUnits(dirty.first(), inPlaceLast, newSize, data, oldUnits, null, inPlace);
                    if (retagUnit != null) {
                        retag(dirty.retag(), oldSize, newSize, retagUnit);
                    }
                    cut.run();
                }, () -> {
                    inPlace.putBack(); // may hold the merged tail as overwritten: it goes back after
                    if (mergedTail != null) {
                        writeFully(ByteBuffer.wrap(mergedTail), newUnitsAt);
                    }
                    if (oldRetagUnit != null) {
                        writeFully(ByteBuffer.wrap(oldRetagUnit), layout.storedUnitOffset(dirty.retag()));
                    }
                });
            }
        } finally {
            for (OldUnit old : oldUnits) {
                Bytes.wipe(old.cleartext()); // cleartext read back for this change only
            }
        }
        assert !(rekey && retagUnit != null) : "a new file key rewrites every unit: nothing to re-tag";
        size = newSize;
        lastUnitIndex = recordedLastUnit;
        cutOwed = false; // every path here ended with the cut
    }

    /**
     * The stored bytes of unit {@code oldLast}, the last of a file of {@code oldSize}, that lie where
     * unit {@code oldLast + 1} starts, or null when there are none: a merged last unit ({@code S + r},
     * 1 <= r <= 15) has its last r bytes there. A change that adds units writes them first, over
     * those bytes, and only then rewrites (and keeps, to put back) the old last unit: without this
     * copy a failure in between (a full disk, EIO) cut the file back to a last unit whose end was
     * gone (SIV_XTSHMAC: failed authentication; SIV_XTS: garbage from byte 4080). Taken from the copy
     * of the last unit this object wrote if it holds that unit, else read back (at most 15 bytes).
     */
    private byte[] mergedTail(long oldLast, long oldSize, long cachedLastUnit) throws IOException {
        long next = layout.storedUnitOffset(oldLast + 1);
        int overlap = (int) (layout.ciphertextLength(oldSize) - next);
        if (overlap <= 0) {
            return null;
        }
        if (copyHolds(oldLast, cachedLastUnit, oldSize)) {
            return java.util.Arrays.copyOfRange(lastUnit, lastUnitLength - overlap, lastUnitLength);
        }
        byte[] tail = new byte[overlap];
        readFully(ByteBuffer.wrap(tail), next);
        return tail;
    }

    /**
     * Stores units that are all new (none is read back), then the old last unit re-tagged from the
     * copy this object wrote: batch by batch, each written behind if it is large enough (SIV_XTSHMAC). Waits for
     * the previous pending write only after encrypting the next batch, so the two overlap.
     */
    private void appendUnits(long oldSize, long newSize, Overlay data, DirtyRange dirty) throws IOException {
        long oldLength = layout.ciphertextLength(oldSize);
        long last = layout.unitCount(newSize) - 1;
        long retag = dirty.retag();
        byte[] oldLastUnit = setAsideLastUnit();
        int oldLastUnitLength = lastUnitLength;
        try {
            appendBatches(oldSize, oldLength, last, retag, oldLastUnit, oldLastUnitLength, newSize, data, dirty, false);
        } catch (IOException | RuntimeException | Error e) {
            discardOwnPending(e);
            throw e;
        }
        PendingWrite left = pending;
        if (left != null && !answersDeferred) {
            left.markAnswered(); // this call returns while its last batch is written: a failure now loses acknowledged bytes
        }
        size = newSize;
        lastUnitIndex = recordedLastUnit;
    }

    /**
     * Whether an append's re-tag of unit {@code retag} (-1: none) can use the copy of {@code recorded},
     * the last unit this object wrote: it is that unit, still as long as in a file of {@code oldSize}.
     */
    private boolean retagsFromCopy(long retag, long recorded, long oldSize) {
        return retag < 0 || copyHolds(retag, recorded, oldSize);
    }

    /**
     * Whether the last-unit copies ({@link #lastUnit}, {@link #lastPlain}) hold unit {@code unit} as
     * stored: it is {@code recorded}, the last unit this object wrote, still as long as in a file of {@code oldSize}.
     */
    private boolean copyHolds(long unit, long recorded, long oldSize) {
        return unit == recorded && lastUnitLength == layout.storedUnitLength(recorded, oldSize);
    }

    /**
     * Moves the old last unit's bytes aside (returned) so the new last unit is recorded into
     * {@link #lastUnit} while an append re-tags the old one from them. At the first append the
     * spare is null, and {@link #recordIfLast} makes the second copy.
     */
    private byte[] setAsideLastUnit() {
        byte[] old = lastUnit;
        lastUnit = previousLastUnit;
        previousLastUnit = old;
        return old;
    }

    /**
     * Queues a streaming append (see the class comment) and advances the size; returns false, having
     * changed nothing, for any other change, when the store is short of room, when a queued append
     * has failed (the caller's path then takes that failure), or when the JVM's exit has begun (the
     * caller's path writes before it returns). A batch still written behind by the
     * unqueued path is waited for first, and its failure thrown.
     */
    private boolean queueAppend(long newSize, Overlay data) throws IOException {
        long oldSize = size;
        // An append up to a batch of units can still hold up to 15 bytes more (a merged tail):
        // beyond the queue's buffers it takes the unqueued path.
        if (appendQueue == null || cutOwed || answersDeferred || oldSize == 0 || newSize <= oldSize || data.length() == 0
                || data.length() > appendQueue.capacity()) {
            return false;
        }
        DirtyRange dirty = DirtyRange.of(layout, oldSize, newSize, data, false);
        long units = dirty.last() - dirty.first() + 1;
        if (dirty.first() <= layout.unitCount(oldSize) - 1 || units < WRITE_BEHIND_MIN_UNITS || units > BATCH) {
            return false;
        }
        if (pending != null) {
            drain(); // only the unqueued path writes behind, and only while the queue is idle
        }
        // While the queue is busy its last append leaves the new end's unit recorded, or fails (then
        // the offer is refused); while idle the recorded unit is this call's to check.
        if (!appendQueue.busy()) {
            queueCredit = 0; // a new burst: the store is asked afresh, it may have filled up meanwhile
            if (!retagsFromCopy(dirty.retag(), lastUnitIndex, oldSize)) {
                return false;
            }
        }
        if (!roomToQueue(layout.ciphertextLength(newSize) - layout.ciphertextLength(oldSize))) {
            return false;
        }
        if (!appendQueue.offer(oldSize, newSize, data.position(), data.data(), data.offset(), data.length())) {
            return false;
        }
        size = newSize;
        return true;
    }

    /**
     * Whether {@code bytes} more of ciphertext may be queued: the store is asked at most every
     * {@link #QUEUE_CREDIT} bytes, and must have {@link #QUEUE_HEADROOM} free beyond them. A store
     * that cannot say is short of room.
     */
    private boolean roomToQueue(long bytes) {
        if (queueCredit < bytes) {
            long usable;
            try {
                usable = freeSpace.usableBytes();
            } catch (IOException | RuntimeException e) {
                usable = 0;
            }
            queueCredit = Math.min(usable - QUEUE_HEADROOM, QUEUE_CREDIT);
            if (queueCredit < bytes) {
                queueCredit = 0;
                return false;
            }
        }
        queueCredit -= bytes;
        return true;
    }

    /**
     * On the queue's runner, which owns the append state meanwhile: encrypts and writes one queued
     * append as {@link #appendUnits} does, without writing behind. Its failure (the file cut back to
     * {@code append.oldSize()}) goes to the queue, which hands it to {@link #settleQueue}.
     */
    private void appendQueued(AppendQueue.Append append) throws IOException {
        long oldSize = append.oldSize();
        long newSize = append.newSize();
        Overlay data = new Overlay(append.position(), append.cleartext(), 0, append.length());
        DirtyRange dirty = DirtyRange.of(layout, oldSize, newSize, data, false);
        long retag = dirty.retag();
        if (!retagsFromCopy(retag, lastUnitIndex, oldSize)) {
            // Never expected (queueAppend checked or predicted it): refuse rather than re-tag unknown bytes.
            throw new IOException("the file's last unit changed under a queued append");
        }
        lastUnitIndex = -1;
        recordedLastUnit = -1;
        byte[] oldLastUnit = setAsideLastUnit();
        appendBatches(oldSize, layout.ciphertextLength(oldSize), layout.unitCount(newSize) - 1, retag, oldLastUnit,
                lastUnitLength, newSize, data, dirty, true);
        lastUnitIndex = recordedLastUnit;
    }

    /**
     * Waits until no append is queued or running; a failure of one is undone (the file's size goes
     * back to before it) and counted, and kept for the next call that {@link #drain drains}.
     */
    private void settleQueue() {
        if (appendQueue == null || !appendQueue.busy()) {
            return;
        }
        AppendQueue.Failure failed = appendQueue.awaitIdle();
        queueCredit = 0;
        if (failed != null) {
            lastUnitIndex = -1;
            size = failed.restoreSize();
            Throwable cause = failed.cause();
            keepUndone(cause instanceof EarlierWriteLostException lost ? lost : new EarlierWriteLostException(cause));
        }
    }

    /**
     * A call that fails leaves the file as it was: a batch of its own still running behind (it
     * failed between two batches, e.g. an error in the crypto) is waited for and its units cut off
     * again, whether it succeeded or not; a failure of it is added to {@code e}.
     */
    private void discardOwnPending(Throwable e) {
        PendingWrite own = pending;
        if (own == null || own.answered()) {
            return;
        }
        pending = null;
        IOException failure = own.awaitAndDiscard();
        if (own.cutFailed()) {
            oweCut();
        }
        if (failure != null) {
            e.addSuppressed(failure);
        }
        lastUnitIndex = -1;
        size = own.restoreSize;
    }

    /** With {@code queued} (on the queue's runner) each batch is written at once, its failure a loss of acknowledged bytes. */
    private void appendBatches(long oldSize, long oldLength, long last, long retag, byte[] oldLastUnit, int oldLastUnitLength,
            long newSize, Overlay data, DirtyRange dirty, boolean queued) throws IOException {
        for (long batchStart = dirty.first(); batchStart <= dirty.last(); batchStart += BATCH) {
            long batchEnd = Math.min(dirty.last(), batchStart + BATCH - 1);
            int units = (int) (batchEnd - batchStart + 1);
            boolean retagsHere = batchEnd == dirty.last() && retag >= 0;
            byte[] stored = buffers.stored(0, units, retagsHere);
            int storedLen = encryptUnits(cryptor, buffers.plain(), batchStart, batchEnd, last, newSize, data, List.of(),
                    stored, 0);
            int retagLen = 0;
            int retagAt = buffers.retagOffset(units);
            if (retagsHere) {
                // It stops being the last unit. This object wrote these bytes and kept them, so they
                // are re-tagged without being read back and verified: nothing foreign is authenticated.
                retagLen = oldLastUnitLength;
                System.arraycopy(oldLastUnit, 0, stored, retagAt, retagLen);
                cryptor.retagWritten(retag, false, stored, retagAt, retagLen);
            }
            // Only the tag changes in a re-tag: its old bytes are all a failure needs to put back.
            byte[] oldTag = retagLen == 0 ? null
                    : java.util.Arrays.copyOfRange(oldLastUnit, retagLen - UnitCryptor.TAG, retagLen);
            PendingWrite write = new PendingWrite(ciphertext, stored, storedLen, layout.storedUnitOffset(batchStart),
                    retagAt, retagLen, retagLen == 0 ? -1 : layout.storedUnitOffset(retag), oldTag, oldLength, oldSize);
            if (queued) {
                write.markAnswered(); // its call returned when it was queued
                write.run();
                IOException lost = write.awaitAndUndo(); // cuts the file back unless its units are all written
                if (lost != null) {
                    if (write.cutFailed()) {
                        oweCut(); // the runner owns the append state; awaitIdle publishes it
                    }
                    throw lost;
                }
                continue;
            }
            drain();
            if (writeBehind && batchEnd - batchStart + 1 >= WRITE_BEHIND_MIN_UNITS) {
                buffers.swapStored();
                pending = write;
                if (!write.start()) { // it ran here (the JVM exits): its outcome is this call's, taken now
                    pending = null;
                    finish(write);
                }
            } else {
                write.run();
                finish(write);
            }
        }
    }

    /**
     * Waits for the write running behind, if any; throws its failure (after undoing it), or the
     * failure of one that {@link #settle} undid for a reader. Only calls that change the file (or
     * collect errors: force, close, a zero-length write) drain, so a writer learns that its data was
     * undone before anything else is written after it.
     */
    private void drain() throws IOException {
        PendingWrite own = pending;
        if (own != null && !own.answered()) {
            pending = null;
            finish(own); // this call's previous batch: its failure is this call's own, not an earlier write's
        }
        settle();
        IOException failure = undoneWriteFailure;
        if (failure != null) {
            undoneWriteFailure = null;
            throw failure;
        }
    }

    /**
     * Waits for the write running behind, if any; a failure is undone and kept for the next call
     * that {@link #drain drains}, not thrown: a reader (or a time being set) must not take the error
     * away from the writer whose data was lost (a reader beside cp would otherwise see EIO, while
     * cp's next write went on past a range that was undone).
     */
    private void settle() {
        settleQueue();
        PendingWrite write = pending;
        if (write != null) {
            pending = null;
            try {
                finish(write);
            } catch (IOException e) {
                keepUndone(e);
            }
        }
    }

    /** Counts an undone write's failure and keeps it for the next call that drains (under the file's lock). */
    private void keepUndone(IOException e) {
        long count = undoneFailures + 1;
        if (e instanceof EarlierWriteLostException lost) {
            lost.counted(count); // before it is published: a caller told of it records this count
        }
        if (undoneWriteFailure == null) {
            undoneWriteFailure = e;
        } else {
            undoneWriteFailure.addSuppressed(e);
        }
        lastUndoneFailure = e;
        undoneFailures = count; // under the file's lock: one writer
    }

    /** How many writes that ran behind have failed and been undone so far (a channel's starting point). */
    public long undoneFailures() {
        return undoneFailures;
    }

    /** The latest undone write failure if more than {@code seen} writes have failed and been undone, else null. */
    public IOException undoneFailureAfter(long seen) {
        return undoneFailures > seen ? lastUndoneFailure : null;
    }

    /** Takes the outcome of a write that has run or is running; after a failure, forgets it and throws. */
    private void finish(PendingWrite write) throws IOException {
        IOException failure = write.awaitAndUndo();
        if (failure != null) {
            if (write.cutFailed()) {
                oweCut();
            }
            lastUnitIndex = -1;
            size = write.restoreSize;
            throw failure;
        }
    }

    /** Cleartext of dirty units that the write does not fully cover and that existed before. */
    private List<OldUnit> readOldCleartext(DirtyRange dirty, long oldSize, long newSize, Overlay data, long cachedLastUnit)
            throws IOException {
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
            if (end == oldSize && copyHolds(j, cachedLastUnit, oldSize)) {
                // The stored last unit is the one this object recorded: its cleartext is at hand.
                System.arraycopy(lastPlain, 0, old, 0, old.length);
            } else {
                readPlain(cryptor, buffers, start, end, old, 0, false); // a write: no read-ahead
            }
            result.add(new OldUnit(j, old));
            j++;
        }
        return result;
    }

    /**
     * Gives the file the new key {@code sealed} and runs {@code action}, which rewrites it under that
     * key from the start (SIV_XTS: a size crossing 16 bytes either way). One of the two sizes is below
     * 16 bytes, so what it overwrites of the old file is small: those bytes are kept first, and if the
     * action fails (a full disk) they are written back, the file cut to its old length and the old
     * key and header taken again, so the file stays as it was. SIV_XTS cannot tell a mixed file from
     * a right one (no tags): without this, the next read returned garbage without an error.
     */
    private void rekeyRestoringOnFailure(long oldSize, long newSize, ContentKeys.Sealed sealed, IoAction action) throws IOException {
        long oldLength = layout.ciphertextLength(oldSize);
        byte[] overwritten = new byte[(int) Math.min(oldLength, layout.ciphertextLength(newSize))];
        readFully(ByteBuffer.wrap(overwritten), 0);
        UnitCryptor oldCryptor = cryptor;
        byte[] oldHeader = header;
        cryptor = null;
        destroyCryptor(); // the spares, keyed for the old file key; the old cryptor is kept above
        cryptor = sealed.cryptor();
        header = sealed.header().clone();
        try {
            action.run();
        } catch (IOException | RuntimeException e) {
            try {
                writeFully(ByteBuffer.wrap(overwritten), 0);
                cutBack(oldLength);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            keys.release(cryptor);
            cryptor = oldCryptor;
            header = oldHeader;
            throw e;
        } finally {
            Bytes.wipe(overwritten); // ciphertext, but of a file that is no more once this succeeds
        }
        if (oldCryptor != null) {
            keys.release(oldCryptor);
        }
    }

    /**
     * Runs {@code action}; if it fails, cuts the ciphertext back to {@code oldLength} first (on a
     * full disk that frees the room the putting back needs) and then runs {@code putBack} (null:
     * none), which writes back stored bytes the action overwrote in place.
     */
    private void restoringOnFailure(long oldLength, IoAction action, IoAction putBack) throws IOException {
        try {
            action.run();
        } catch (IOException | RuntimeException e) {
            try {
                cutBack(oldLength);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            try {
                if (putBack != null) {
                    putBack.run(); // also after a failed cut: the old units are read at the old size
                }
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** Cuts the ciphertext back to {@code length} to undo a failed change; if that fails, the next change owes the cut. */
    private void cutBack(long length) throws IOException {
        try {
            ciphertext.truncate(length);
        } catch (IOException e) {
            oweCut();
            throw e;
        }
    }

    /** After an undo whose cut failed: the next change owes it, and the bytes left are noted as this object's. */
    private void oweCut() {
        cutOwed = true;
        try {
            leftoverLength = ciphertext.size();
        } catch (IOException | RuntimeException e) {
            leftoverLength = -1; // unknown: a join then takes any leftovers for another program's
        }
    }

    /**
     * The stored bytes, as in a file of {@code oldSize}, of the one batch of units a change is
     * rewriting in place, kept just before that batch is written so that a failure can put them back.
     * One buffer of at most {@link #BATCH} stored units, reused batch after batch: a large overwrite
     * in one call needs no copy as large as its range. Ciphertext only, so it needs no wiping.
     */
    private final class InPlaceBackup {
        private final long oldSize;
        /** The old last unit as stored, from the copy {@link OpenFile} keeps (null: read it back). */
        private final byte[] oldLastUnit;
        private byte[] bytes;
        /** Where the kept batch goes back, -1 while none is kept. */
        private long position = -1;
        private int length;

        InPlaceBackup(long oldSize, byte[] oldLastUnit) {
            this.oldSize = oldSize;
            this.oldLastUnit = oldLastUnit;
        }

        /**
         * Keeps the stored bytes that a write of {@code writeLength} bytes over units {@code [first, last]}
         * is about to overwrite; the batch kept before them is written, so it is dropped. Those are
         * the old units' bytes, and, where a shrink gives the new last unit up to 15 bytes more
         * extent (merged with the start of the next sector), the start of the old next unit too.
         */
        void keep(long first, long last, int writeLength) throws IOException {
            position = -1; // until this batch is all read: a failure meanwhile has nothing of it to put back
            long from = layout.storedUnitOffset(first);
            long oldEnd = layout.storedUnitOffset(last) + layout.storedUnitLength(last, oldSize);
            int len = (int) (Math.max(oldEnd, Math.min(from + writeLength, layout.ciphertextLength(oldSize))) - from);
            if (bytes == null || bytes.length < len) {
                bytes = new byte[len];
                largestInPlaceBackup = Math.max(largestInPlaceBackup, len);
            }
            int diskLen = len;
            if (oldLastUnit != null && last == layout.unitCount(oldSize) - 1) {
                // The range ends with the old last unit (nothing stored after it): its bytes are at hand.
                System.arraycopy(oldLastUnit, 0, bytes, len - oldLastUnit.length, oldLastUnit.length);
                diskLen = len - oldLastUnit.length;
            }
            if (diskLen > 0) {
                readFully(ByteBuffer.wrap(bytes, 0, diskLen), from);
            }
            length = len;
            position = from;
        }

        /** Writes the kept batch back, if one is kept. */
        void putBack() throws IOException {
            if (position >= 0) {
                writeFully(ByteBuffer.wrap(bytes, 0, length), position);
            }
        }
    }

    /** The largest buffer an {@link InPlaceBackup} of this file has taken, in bytes: for tests of its bound. */
    int largestInPlaceBackup() {
        return largestInPlaceBackup;
    }

    /** Something done to the ciphertext file that may throw. */
    @FunctionalInterface
    public interface IoAction {
        void run() throws IOException;
    }

    /**
     * Encrypts and stores units {@code [from, to]}; a non-null {@code newHeader} (with {@code from} 0)
     * is stored in the same write as the first batch. A non-null {@code backup} keeps each batch's
     * stored bytes just before that batch is written over them.
     */
    private void writeUnits(long from, long to, long newSize, Overlay data, List<OldUnit> oldUnits, byte[] newHeader,
            InPlaceBackup backup) throws IOException {
        long last = layout.unitCount(newSize) - 1;
        for (long batchStart = from; batchStart <= to; batchStart += BATCH) {
            long batchEnd = Math.min(to, batchStart + BATCH - 1);
            // A new header goes in front of the first batch, in the same write.
            int lead = newHeader != null && batchStart == 0 ? newHeader.length : 0;
            byte[] stored = buffers.stored(lead, (int) (batchEnd - batchStart + 1), false);
            int storedLen = encryptUnits(cryptor, buffers.plain(), batchStart, batchEnd, last, newSize, data, oldUnits,
                    stored, lead);
            if (lead > 0) {
                System.arraycopy(newHeader, 0, stored, 0, lead);
            }
            if (backup != null) {
                backup.keep(batchStart, batchEnd, storedLen);
            }
            writeFully(ByteBuffer.wrap(stored, 0, lead + storedLen), lead > 0 ? 0 : layout.storedUnitOffset(batchStart));
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
            keys.release(spare.cryptor());
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
                int from = data.offset() + (int) (start - data.position());
                cryptor.encrypt(j, j == last, data.data(), from, len, stored, storedLen);
                recordIfLast(j, last, stored, storedLen, len, data.data(), from);
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
            recordIfLast(j, last, stored, storedLen, len, plain, 0);
            storedLen += len + layout.overhead();
        }
        return storedLen - storedOff;
    }

    /**
     * Keeps a copy of the file's new last unit (SIV_XTSHMAC), stored and in cleartext ({@code len}
     * bytes of {@code plain} from {@code plainOff}), for re-tagging it on the next append and for
     * extending it on the next write.
     */
    private void recordIfLast(long j, long last, byte[] stored, int storedOff, int len, byte[] plain, int plainOff) {
        if (j == last && layout.overhead() > 0) {
            if (lastUnit == null) {
                // Made on the first write only: a file that is just read never needs it. The
                // second copy is made by the first append's set-aside (a file written once never needs it).
                lastUnit = new byte[layout.storedUnitSize() + SectorLayout.MIN_XTS];
            }
            if (lastPlain == null) {
                lastPlain = new byte[SectorLayout.SECTOR + SectorLayout.MIN_XTS]; // one, never swapped: wiped at close
            }
            lastUnitLength = len + layout.overhead();
            System.arraycopy(stored, storedOff, lastUnit, 0, lastUnitLength);
            System.arraycopy(plain, plainOff, lastPlain, 0, len);
            recordedLastUnit = j;
        }
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
     * and its scratch {@code buffers}, which no other thread uses meanwhile. With {@code withReadAhead}
     * (reads, not a write reading old units under the write lock), a batch the read-ahead has
     * decrypted is copied from it, and the read then tells the read-ahead where it read, which
     * decrypts the batches after a sequential stream on reader threads.
     */
    private void readPlain(UnitCryptor cryptor, UnitBuffers buffers, long from, long to,
            byte[] out, int outOff, boolean withReadAhead) throws IOException {
        long first = layout.unitOf(from, size);
        long last = layout.unitOf(to - 1, size);
        // Batches on the read-ahead's grid (units 0, BATCH, 2 BATCH, ...), so its jobs fit any read.
        for (long batchStart = first, batchEnd; batchStart <= last; batchStart = batchEnd + 1) {
            batchEnd = Math.min(last, readAhead.batchOf(batchStart) + BATCH - 1);
            if (withReadAhead) {
                if (readAhead.copyTo(batchStart, batchEnd, from, to, out, outOff)) {
                    continue;
                }
                readAhead.handOut(batchStart, batchEnd, last, from, to, size);
            }
            long ctStart = layout.storedUnitOffset(batchStart);
            int ctLen = (int) (layout.storedUnitOffset(batchEnd) + layout.storedUnitLength(batchEnd, size) - ctStart);
            byte[] stored = buffers.stored(ctLen);
            readFully(ByteBuffer.wrap(stored, 0, ctLen), ctStart);
            decryptBatch(cryptor, buffers, stored, batchStart, batchEnd, size, from, to, out, outOff);
        }
        if (withReadAhead) {
            readAhead.readDone(from, to);
            if (to >= size) {
                readAhead.drop();
            }
        }
    }

    /**
     * The read-ahead's decryption of whole units {@code [first, last]} on a reader thread, with a
     * spare cryptor (the header cannot change meanwhile: every change cancels the read-ahead first).
     */
    private boolean decryptAhead(byte[] stored, long first, long last, long fileSize, byte[] cleartext) {
        Decryptor spare;
        try {
            spare = takeSpare();
        } catch (DamagedFileException e) {
            return false;
        }
        try {
            // Whole units, so each is decrypted straight into the cleartext buffer at (j - first) * SECTOR.
            long end = SectorLayout.unitStart(last) + layout.unitLength(last, fileSize);
            decryptBatch(spare.cryptor(), spare.buffers(), stored, first, last, fileSize, SectorLayout.unitStart(first),
                    end, cleartext, 0);
            return true;
        } catch (DamagedFileException e) {
            return false; // the reader decrypts this batch itself and reports the damage
        } finally {
            returnSpare(spare);
        }
    }

    /**
     * Decrypts the stored units {@code [batchStart, batchEnd]} of a file of cleartext size {@code fileSize},
     * held from offset 0 of {@code stored}; copies what {@code [from, to)} wants (a read, or a
     * read-ahead job's whole batch).
     */
    private void decryptBatch(UnitCryptor cryptor, UnitBuffers buffers, byte[] stored, long batchStart, long batchEnd,
            long fileSize, long from, long to, byte[] out, int outOff) throws DamagedFileException {
        long fileLast = layout.unitCount(fileSize) - 1;
        int storedOff = 0;
        for (long j = batchStart; j <= batchEnd; j++) {
            int len = layout.unitLength(j, fileSize);
            long unitStart = SectorLayout.unitStart(j);
            // A unit the read covers entirely is decrypted straight into the caller's array.
            boolean direct = from <= unitStart && unitStart + len <= to;
            byte[] target = direct ? out : buffers.plain();
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
            System.arraycopy(target, (int) (copyFrom - unitStart), out, outOff + (int) (copyFrom - from),
                    (int) (copyTo - copyFrom));
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

    /** Returns the file's cryptor and every spare to the vault's pool; under the write lock, so no read is using one. */
    private void destroyCryptor() {
        if (cryptor != null) {
            keys.release(cryptor);
            cryptor = null;
        }
        header = null;
        for (Decryptor spare; (spare = spareDecryptors.pollFirst()) != null; ) {
            keys.release(spare.cryptor());
            spare.buffers().wipe();
        }
    }

    private record OldUnit(long index, byte[] cleartext) {}

    /** A cryptor and its scratch buffers for one read at a time. */
    private record Decryptor(UnitCryptor cryptor, UnitBuffers buffers) {}
}
