package dev.coffer.core.nio;

import dev.coffer.core.content.EarlierWriteLostException;
import dev.coffer.core.content.OpenFile;
import java.io.IOException;
import java.nio.file.ClosedFileSystemException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * A {@link FileChannel} on a cleartext file: its own position, mode and append flag over the
 * shared {@link OpenFile}. Memory mapping is not supported (the content is encrypted).
 *
 * <p>A write that the file ran behind and that failed (a full disk) is undone and thrown by the
 * file's next change, whichever channel makes it. So that the program whose data was lost hears of
 * it too, a writable channel also reports every such failure it has not seen yet, once: at its flush
 * points (a zero-length write, which is FUSE's flush at each close; {@code force}; {@code close}) and
 * instead of its next write, so that no writer writes on past a range that was undone without being
 * told (the channel that took the failure first may be another's). Such a failure thrown to it by
 * any call counts as seen (its own write's failure does not).
 */
final class CleartextFileChannel extends FileChannel {
    private static final int TRANSFER_CHUNK = 128 * 1024;
    /** Makes the cleartext buffer of a transfer; a test's seam. */
    private IntFunction<ByteBuffer> transferBuffers = ByteBuffer::allocate;

    private final OpenFiles registry;
    private final OpenFiles.Handle handle;
    private final OpenFile file;
    private final boolean readable;
    private final boolean writable;
    private final boolean append;
    private long position;
    /** The file's count of undone write failures this channel has reported (or had thrown at it); only grows. */
    private final AtomicLong failuresSeen = new AtomicLong();
    /** The file's count of failed forces this channel has reported (or had thrown at it); only grows. */
    private final AtomicLong forceFailuresSeen = new AtomicLong();

    /** What a write waits for before it returns (the DSYNC and SYNC open options). */
    enum Sync {
        /** Nothing: the data reaches the disk at {@code force} or whenever the kernel writes it. */
        NONE,
        /** The data on the disk (DSYNC): {@code force(false)} after each write. */
        DATA,
        /** The data and the metadata on the disk (SYNC): {@code force(true)} after each write. */
        ALL
    }

    private final Sync sync;
    /** This channel's locks not yet released; guarded by itself. */
    private final List<DelegatingFileLock> locks = new ArrayList<>();

    CleartextFileChannel(OpenFiles registry, OpenFiles.Handle handle, boolean readable, boolean writable, boolean append,
            Sync sync) {
        this.sync = sync;
        this.registry = registry;
        this.handle = handle;
        this.file = handle.file;
        this.readable = readable;
        this.writable = writable;
        this.append = append;
        this.failuresSeen.set(file.undoneFailures());
        this.forceFailuresSeen.set(file.forceFailures());
        if (!registry.register(this)) { // the file system closed meanwhile: no channel may outlive it
            ClosedFileSystemException closing = new ClosedFileSystemException();
            try {
                registry.release(handle, this);
            } catch (IOException e) {
                closing.addSuppressed(e);
            }
            throw closing;
        }
    }

    /**
     * After a call threw: if it threw the report of a lost earlier write, whatever failure the file had
     * undone so far has reached this channel's caller. A call's own failure (the disk full for its own
     * bytes) tells nothing of earlier writes, so a loss not yet told stays to be reported.
     */
    private IOException seen(IOException e) {
        EarlierWriteLostException lost = earlierWriteLost(e);
        if (lost != null) {
            told(lost);
        }
        return e;
    }

    /** Records that this channel's caller was told of {@code lost}, and of every loss counted before it. */
    private void told(EarlierWriteLostException lost) {
        failuresSeen.accumulateAndGet(lost.count(), Math::max);
    }

    private static EarlierWriteLostException earlierWriteLost(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof EarlierWriteLostException lost) {
                return lost;
            }
        }
        return null;
    }

    /**
     * At a flush point of a writable channel: throws the latest undone write failure it has not seen,
     * as an exception of its own (several channels may report the same failure: one object thrown
     * twice would make try-with-resources suppress it into itself).
     */
    private void reportUndoneFailures() throws IOException {
        IOException failure = writable ? file.undoneFailureAfter(failuresSeen.get()) : null;
        if (failure != null) {
            EarlierWriteLostException lost = earlierWriteLost(failure);
            if (lost == null) {
                failuresSeen.set(Math.max(failuresSeen.get(), file.undoneFailures())); // never expected: every counted failure is typed
                throw new IOException(failure.getMessage(), failure);
            }
            told(lost);
            throw lost.copy();
        }
    }

    @Override
    public synchronized int read(ByteBuffer dst) throws IOException {
        int n = read(dst, position);
        if (n > 0) {
            position += n;
        }
        return n;
    }

    @Override
    public synchronized long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            int n = read(dsts[i]);
            if (n < 0) {
                return total == 0 ? -1 : total;
            }
            total += n;
            if (dsts[i].hasRemaining()) {
                break;
            }
        }
        return total;
    }

    @Override
    public int read(ByteBuffer dst, long pos) throws IOException {
        ensureOpen();
        if (!readable) {
            throw new NonReadableChannelException();
        }
        if (pos < 0) {
            throw new IllegalArgumentException("negative position");
        }
        return file.read(dst, pos);
    }

    @Override
    public synchronized int write(ByteBuffer src) throws IOException {
        if (append) {
            ensureOpen();
            if (!writable) {
                throw new NonWritableChannelException();
            }
            int n = src.remaining();
            try {
                position = file.append(src, failuresSeen.get()) + n; // refused with a loss not told yet
            } catch (IOException e) {
                throw seen(e);
            }
            if (n == 0) {
                reportUndoneFailures(); // a zero-length write is a flush point, appending or not
            } else {
                syncIfAsked();
            }
            return n;
        }
        int n = write(src, position);
        position += n;
        return n;
    }

    @Override
    public synchronized long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        java.util.Objects.checkFromIndexSize(offset, length, srcs.length);
        if (append) {
            return appendGathering(srcs, offset, length);
        }
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            total += write(srcs[i]);
        }
        return total;
    }

    /**
     * A gathering write in append mode: one append of all the buffers under the file's lock, so two
     * appenders never interleave their records. With nothing to write, a flush point like any
     * zero-length write.
     */
    private long appendGathering(ByteBuffer[] srcs, int offset, int length) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        long n = 0;
        for (int i = offset; i < offset + length; i++) {
            n += srcs[i].remaining();
        }
        if (n == 0) {
            return write(ByteBuffer.allocate(0));
        }
        try {
            position = file.append(srcs, offset, length, failuresSeen.get()) + n; // refused with a loss not told yet
        } catch (IOException e) {
            throw seen(e);
        }
        syncIfAsked();
        return n;
    }

    @Override
    public int write(ByteBuffer src, long pos) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        if (pos < 0) {
            throw new IllegalArgumentException("negative position");
        }
        int n;
        try {
            n = file.write(src, pos, failuresSeen.get()); // refused with a loss not told yet
        } catch (IOException e) {
            throw seen(e);
        }
        if (n == 0) {
            reportUndoneFailures(); // a zero-length write is how a frontend collects them (FUSE's flush)
        } else {
            syncIfAsked();
        }
        return n;
    }

    @Override
    public synchronized long position() throws IOException {
        ensureOpen();
        return append ? file.size() : position;
    }

    @Override
    public synchronized FileChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position");
        }
        position = newPosition;
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return file.size();
    }

    /** Like the default provider: shrinks only; a larger size leaves the file alone. */
    @Override
    public synchronized FileChannel truncate(long size) throws IOException {
        ensureOpen();
        if (size < 0) {
            throw new IllegalArgumentException("negative size");
        }
        if (!writable) {
            throw new NonWritableChannelException();
        }
        boolean cut;
        try {
            cut = file.truncate(size); // compares and cuts under the file's lock: never grows it
        } catch (IOException e) {
            throw seen(e);
        }
        if (cut) {
            syncIfAsked();
        }
        if (position > size) {
            position = size;
        }
        return this;
    }

    /**
     * Forces the file; also reports, once, a force of this file that failed on another channel since
     * this one was opened or last told: data this channel wrote may not have reached the disk then
     * (the kernel reports a writeback error to one fsync of the shared descriptor only).
     */
    @Override
    public void force(boolean metaData) throws IOException {
        ensureOpen();
        try {
            file.force(metaData);
        } catch (IOException e) {
            forceFailuresSeen.accumulateAndGet(file.forceFailures(), Math::max);
            throw seen(e);
        }
        reportUndoneFailures();
        IOException earlier = file.forceFailureAfter(forceFailuresSeen.get());
        if (earlier != null) {
            forceFailuresSeen.accumulateAndGet(file.forceFailures(), Math::max);
            throw new IOException("an earlier fsync of this file failed, so data written before it may not be on the disk: "
                    + earlier.getMessage(), earlier);
        }
    }

    /**
     * With DSYNC or SYNC, forces what a write just changed (its queued or write-behind batches too:
     * force waits for them) before the write returns, as the default provider's O_DSYNC / O_SYNC do.
     */
    private void syncIfAsked() throws IOException {
        if (sync != Sync.NONE) {
            force(sync == Sync.ALL);
        }
    }

    @Override
    public long transferTo(long pos, long count, WritableByteChannel target) throws IOException {
        ByteBuffer buf = transferBuffers.apply((int) Math.min(TRANSFER_CHUNK, Math.max(1, count)));
        try {
            long done = 0;
            while (done < count) {
                buf.clear().limit((int) Math.min(buf.capacity(), count - done));
                int n = read(buf, pos + done);
                if (n <= 0) {
                    break;
                }
                buf.flip();
                while (buf.hasRemaining()) {
                    target.write(buf);
                }
                done += n;
            }
            return done;
        } finally {
            Arrays.fill(buf.array(), (byte) 0); // cleartext: none stays in the heap, also after a failure
        }
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long pos, long count) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        if (pos < 0 || count < 0) {
            throw new IllegalArgumentException("negative position or count");
        }
        if (pos > file.size()) {
            return 0; // FileChannel's contract (and the default provider): past the end, nothing is transferred
        }
        ByteBuffer buf = transferBuffers.apply((int) Math.min(TRANSFER_CHUNK, Math.max(1, count)));
        try {
            long done = 0;
            while (done < count) {
                buf.clear().limit((int) Math.min(buf.capacity(), count - done));
                int n = src.read(buf);
                if (n <= 0) {
                    break;
                }
                buf.flip();
                done += write(buf, pos + done);
            }
            return done;
        } finally {
            Arrays.fill(buf.array(), (byte) 0); // cleartext: none stays in the heap, also after a failure
        }
    }

    /** Tests: makes the cleartext buffers of {@link #transferTo} and {@link #transferFrom} (heap, so they can be zeroed). */
    void transferBuffers(IntFunction<ByteBuffer> buffers) {
        transferBuffers = buffers;
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long pos, long size) {
        throw new UnsupportedOperationException("memory-mapping an encrypted file is not supported");
    }

    /** Advisory locks on the same region of the ciphertext file (the registry shares one ciphertext channel). */
    @Override
    public FileLock lock(long pos, long size, boolean shared) throws IOException {
        ensureOpen();
        return held(new DelegatingFileLock(this, file.ciphertextChannel().lock(pos, size, shared)));
    }

    @Override
    public FileLock tryLock(long pos, long size, boolean shared) throws IOException {
        ensureOpen();
        FileLock l = file.ciphertextChannel().tryLock(pos, size, shared);
        return l == null ? null : held(new DelegatingFileLock(this, l));
    }

    /** Remembers a lock of this channel, to release it at close (the locks are on the shared channel). */
    private FileLock held(DelegatingFileLock lock) throws IOException {
        synchronized (locks) {
            if (isOpen()) {
                locks.add(lock);
                return lock;
            }
        }
        lock.delegate.release(); // closed meanwhile: its close released the others already
        throw new java.nio.channels.ClosedChannelException();
    }

    /**
     * Releases the locks this channel still holds, as a FileChannel's close does: they are on the
     * ciphertext channel, which stays open while other channels use the file.
     */
    private IOException locksReleased(IOException failure) {
        List<DelegatingFileLock> held;
        synchronized (locks) {
            held = new ArrayList<>(locks);
            locks.clear();
        }
        for (DelegatingFileLock l : held) {
            try {
                if (l.delegate.isValid()) {
                    l.delegate.release();
                }
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        return failure;
    }

    /**
     * A writable channel's close is a flush point even while other channels keep the file open (then
     * the release closes nothing): it first waits for a write running behind, which may be this
     * channel's own last append, and throws its failure after releasing.
     */
    @Override
    protected void implCloseChannel() throws IOException {
        IOException failure = null;
        try {
            if (writable) {
                file.write(ByteBuffer.allocate(0), 0);
            }
        } catch (IOException e) {
            failure = seen(e);
        } finally {
            failure = released(locksReleased(failure));
        }
        if (failure != null) {
            throw failure;
        }
        reportUndoneFailures();
    }

    /** Releases this channel's hold on the file; returns {@code failure}, or the release's, or both. */
    private IOException released(IOException failure) {
        try {
            registry.release(handle, this);
        } catch (IOException e) {
            IOException released = seen(e);
            if (failure == null) {
                return released;
            }
            if (released != failure) {
                failure.addSuppressed(released);
            }
        }
        return failure;
    }

    private void ensureOpen() throws IOException {
        if (!isOpen()) {
            throw new java.nio.channels.ClosedChannelException();
        }
    }

    /** A lock on the ciphertext channel presented as a lock of this channel. */
    private final class DelegatingFileLock extends FileLock {
        private final FileLock delegate;

        DelegatingFileLock(FileChannel channel, FileLock delegate) {
            super(channel, delegate.position(), delegate.size(), delegate.isShared());
            this.delegate = delegate;
        }

        @Override
        public boolean isValid() {
            return delegate.isValid() && channel().isOpen();
        }

        @Override
        public void release() throws IOException {
            if (!channel().isOpen()) {
                throw new java.nio.channels.ClosedChannelException(); // its close released it (FileLock's contract)
            }
            delegate.release();
            synchronized (locks) {
                locks.remove(this);
            }
        }
    }
}
