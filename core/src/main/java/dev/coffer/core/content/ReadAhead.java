package dev.coffer.core.content;

import dev.coffer.core.crypto.Bytes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Decrypt-ahead of one open file for readers that read it front to back: while they copy out one
 * batch, reader threads read and decrypt the next {@link #DEPTH} batches, so a stream is decrypted
 * on every core (a FUSE mount gets only one or two kernel read requests in flight, a
 * {@code FileChannel} caller one; serially a read waits for the pread and the decryption of each
 * batch in turn).
 *
 * <p>It decides which batches to fetch and hands them over; the decryption itself is the open file's
 * ({@link UnitDecryption}, with a spare cryptor), and so is every judgement of authenticity: a batch
 * that failed (a damaged unit, a failed read) is dropped silently and the reader reads and decrypts
 * it itself, so the error is reported by the read that reaches it, naming the file, as without
 * read-ahead. A batch not yet started when its reader arrives is taken back and read by the reader.
 *
 * <p>Cleartext: each job holds one batch of it in a heap buffer until its reader copies it out; the
 * buffers are reused, and zeroed when the read-ahead is cancelled with {@link #dropBuffers} (the end
 * of the file was read, or the file closes). At most {@link #DEPTH} jobs plus those being copied and
 * a few spare buffer pairs: about 1 MiB per file read sequentially.
 *
 * <p>Thread-safe: any read of the file (several run in parallel) takes batches from it and reports
 * where it read. {@link #cancel} must run where no read runs (under the file's write lock): every
 * change and close cancels first, waiting for jobs in flight, so no read sees a batch from before a
 * write, and no job outlives the cryptors or the channel it uses.
 */
final class ReadAhead {
    /** Calls that read fewer units are not read ahead for: handing a small read to a thread costs more than it saves. */
    static final int MIN_UNITS = 8;
    /**
     * Batches handed to reader threads before a read decrypts one itself: one per other core (the
     * reading thread decrypts too), at most 3. On two cores the reader and one reader thread take
     * turns, which measured faster than two reader threads and a waiting reader (a third runnable
     * thread on two cores waits for a time slice, and so does its batch).
     */
    static final int DEPTH = Math.max(1, Math.min(3, Runtime.getRuntime().availableProcessors() - 1));
    /** How long a waiting reader spins before it parks: a job about to end saves a wake-up (tens of microseconds in a VM). */
    private static final long SPIN_NANOS = 50_000;
    /** Spare buffer pairs kept: as many as jobs can hold plus ones readers copy from. */
    private static final int MAX_SPARE_BUFFERS = DEPTH + 2;
    /**
     * How long a reader thread that ran out of jobs looks for the next before it ends: a reader
     * hands out a batch every one or two batches, and a thread still looking takes it at once
     * where waking a parked one costs tens of microseconds.
     */
    private static final long IDLE_SPIN_NANOS = 50_000;
    private static final AtomicInteger THREADS = new AtomicInteger();
    /**
     * Reader threads shared by every open file: a hand-over goes to an idle one, or starts one (so
     * the first seconds of a stream start a few), ended after a minute idle. Measured against a
     * fixed pool waiting on a queue, which was slower here (256 MiB SIV_XTS median 90.7 vs 77.5 ms):
     * a thread parked on a queue wakes later than one that has just returned and still polls. Daemon
     * threads; never interrupted (an interrupt during I/O would close the shared ciphertext channel).
     */
    private static final Executor READERS = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
            new SynchronousQueue<>(), task -> {
                Thread t = new Thread(task, "coffer-reader-" + THREADS.incrementAndGet());
                t.setDaemon(true);
                return t;
            });

    /** Decrypts whole stored units; implemented by the open file, which owns the keys. */
    interface UnitDecryption {
        /**
         * Decrypts stored units {@code [first, last]} of a file of cleartext size {@code size}, held
         * from offset 0 of {@code stored}, into {@code cleartext} from offset 0 (unit {@code j} at
         * {@code (j - first) * SECTOR}). Returns false if a unit failed authentication or no cryptor
         * could be had; never throws for those.
         */
        boolean decrypt(byte[] stored, long first, long last, long size, byte[] cleartext);
    }

    private final FileChannel channel;
    private final SectorLayout layout;
    private final UnitDecryption decryption;
    private final int batchUnits;
    /** Jobs not yet taken by a reader thread, in the order they were handed out. */
    private final ConcurrentLinkedQueue<Job> queued = new ConcurrentLinkedQueue<>();
    /** Reader threads running this file's jobs (at most {@link #DEPTH}), and how many of them look for one. */
    private final AtomicInteger drainers = new AtomicInteger();
    private final AtomicInteger looking = new AtomicInteger();
    /** Jobs of consecutive batches, in file order; guarded by {@code this}. */
    private final ArrayDeque<Job> jobs = new ArrayDeque<>();
    /** Jobs dropped while they ran: {@link #cancel} still waits for them. Guarded by {@code this}. */
    private final List<Job> abandoned = new ArrayList<>();
    /** Idle {stored, cleartext} buffer pairs; guarded by {@code this}. */
    private final ArrayDeque<byte[][]> spareBuffers = new ArrayDeque<>();
    /** Where the most recent read ended. */
    private long lastEnd;
    /** The furthest end of the current sequential stream, or -1 if none. */
    private long streamEnd = -1;
    /**
     * Set once two reads of the file ran at the same time (a FUSE mount's workers serving the
     * kernel's read requests, a WebDAV GET's read-ahead): they already decrypt on every core, and
     * handing out batches besides only cost CPU (measured: fresh-mount 1 GiB read through FUSE
     * +0.3 s CPU, no faster). From then on this file hands out nothing.
     */
    private volatile boolean parallelReads;
    /** Set by {@link #dropBuffers} until the next job starts: buffers handed back meanwhile are zeroed, not kept. */
    private boolean dropped;

    ReadAhead(FileChannel channel, SectorLayout layout, int batchUnits, UnitDecryption decryption) {
        this.channel = channel;
        this.layout = layout;
        this.batchUnits = batchUnits;
        this.decryption = decryption;
    }

    /**
     * Copies cleartext {@code [from, to)} ∩ units {@code [first, last]} into {@code out} (at
     * {@code outOff} for {@code from}) if a job decrypted a batch that starts at unit {@code first}
     * and covers {@code last}, waiting for it if it is running. Returns false if there is none, it
     * failed, or it had not started (then it never will): the caller reads those units itself.
     */
    boolean copyTo(long first, long last, long from, long to, byte[] out, int outOff) {
        Job j = take(first);
        if (j == null) {
            return false;
        }
        j.await();
        try {
            if (!j.decrypted || j.last < last) {
                return false;
            }
            long batchStart = SectorLayout.unitStart(first);
            long copyFrom = Math.max(from, batchStart);
            long copyTo = Math.min(to, SectorLayout.unitStart(last) + layout.unitLength(last, j.size));
            System.arraycopy(j.cleartext, (int) (copyFrom - batchStart), out, outOff + (int) (copyFrom - from),
                    (int) (copyTo - copyFrom));
            return true;
        } finally {
            recycle(j);
        }
    }

    /** Removes the job for the batch starting at unit {@code first}, or returns null; null also if it had not started. */
    private synchronized Job take(long first) {
        for (Iterator<Job> it = jobs.iterator(); it.hasNext(); ) {
            Job j = it.next();
            if (j.first == first) {
                it.remove();
                if (j.claim()) {
                    giveBack(j); // not started: reading now beats waiting for a reader thread
                    return null;
                }
                return j;
            }
        }
        return null;
    }

    /**
     * Called by a read about to decrypt the batch {@code [batchStart, batchEnd]} itself: first hands
     * the next {@link #DEPTH} batches that have no job yet to reader threads, so they decrypt while
     * this thread does. Those are the read's own later batches ({@code last} is its last unit), and,
     * if the read continues a sequential stream (it starts where the last read ended, or within the
     * few batches before the stream's end that parallel readers may still be reading), the batches
     * after its end, each as long as this read (at most a batch). Jobs the stream has passed or
     * jumped away from are dropped.
     */
    synchronized void handOut(long batchStart, long batchEnd, long last, long from, long to, long size) {
        pruneAbandoned();
        if (parallelReads) {
            return;
        }
        long firstUnit = layout.unitOf(from, size);
        long fileLast = layout.unitCount(size) - 1;
        int span = (int) Math.min(batchUnits, last - firstUnit + 1);
        boolean prefetch = span >= MIN_UNITS && to < size && continuesStream(from);
        long beyond = layout.unitOf(Math.min(to, size - 1), size); // the next read's first unit
        long furthest = prefetch ? Math.min(fileLast, beyond + (long) DEPTH * span) : last;
        for (Iterator<Job> it = jobs.iterator(); it.hasNext(); ) {
            Job j = it.next();
            if (j.last < firstUnit || j.first > furthest) {
                it.remove();
                abandon(j);
            }
        }
        int started = 0; // jobs after this batch, those handed out before included
        for (Job j : jobs) {
            if (j.first > batchEnd) {
                started++;
            }
        }
        long start = batchEnd + 1;
        while (started < DEPTH && start <= last) { // the read's own later batches
            long end = Math.min(last, start + batchUnits - 1);
            if (!hasJob(start)) {
                if (!startJob(start, end, size)) {
                    return;
                }
                started++;
            }
            start = end + 1;
        }
        start = beyond;
        while (prefetch && started < DEPTH && start <= fileLast) {
            long end = Math.min(fileLast, start + span - 1);
            if (!hasJob(start)) {
                if (!startJob(start, end, size)) {
                    return;
                }
                started++;
            }
            start = end + 1;
        }
    }

    private boolean continuesStream(long from) {
        return from == lastEnd || inStream(from);
    }

    private boolean inStream(long from) {
        return streamEnd >= 0 && from <= streamEnd
                && from >= streamEnd - (long) (DEPTH + 2) * batchUnits * SectorLayout.SECTOR;
    }

    /** Notes that two reads ran at the same time: see {@link #parallelReads}. */
    void parallelReadsSeen() {
        parallelReads = true;
    }

    /** Records a read of cleartext {@code [from, to)}: where a sequential stream continues. */
    synchronized void readDone(long from, long to) {
        if (inStream(from)) {
            streamEnd = Math.max(streamEnd, to);
        } else if (from == lastEnd) {
            streamEnd = to;
        }
        lastEnd = to;
    }

    private boolean hasJob(long first) {
        for (Job j : jobs) {
            if (j.first == first) {
                return true;
            }
        }
        return false;
    }

    private boolean startJob(long first, long last, long size) {
        long ctStart = layout.storedUnitOffset(first);
        int ctLen = (int) (layout.storedUnitOffset(last) + layout.storedUnitLength(last, size) - ctStart);
        byte[][] pair = spareBuffers.pollFirst();
        if (pair == null) {
            pair = new byte[][] {
                new byte[batchUnits * (layout.storedUnitSize() + SectorLayout.MIN_XTS)],
                new byte[batchUnits * SectorLayout.SECTOR + SectorLayout.MIN_XTS]};
        }
        dropped = false;
        Job j = new Job(this, pair, first, last, size, ctStart, ctLen);
        jobs.addLast(j);
        queued.add(j);
        if (queued.size() > looking.get()) {
            startDrainer();
        }
        return true;
    }

    /** Starts a reader thread for this file's jobs unless {@link #DEPTH} already run. */
    private void startDrainer() {
        for (int d; (d = drainers.get()) < DEPTH; ) {
            if (drainers.compareAndSet(d, d + 1)) {
                try {
                    READERS.execute(this::drain);
                } catch (Throwable noThread) { // e.g. no native thread left: readers do their batches themselves
                    drainers.decrementAndGet();
                }
                return;
            }
        }
    }

    /** A reader thread's loop: runs queued jobs in order, looks a while for more, then ends. */
    private void drain() {
        while (true) {
            Job j = queued.poll();
            if (j != null) {
                j.run(); // does nothing if a reader took it back
                continue;
            }
            looking.incrementAndGet();
            long until = System.nanoTime() + IDLE_SPIN_NANOS;
            while (queued.isEmpty() && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            looking.decrementAndGet();
            if (!queued.isEmpty()) {
                continue;
            }
            drainers.decrementAndGet();
            // A job queued after the last look but before the decrement would wait for its reader: look once more.
            if (queued.isEmpty() || !rejoin()) {
                return;
            }
        }
    }

    private boolean rejoin() {
        for (int d; (d = drainers.get()) < DEPTH; ) {
            if (drainers.compareAndSet(d, d + 1)) {
                return true;
            }
        }
        return false;
    }

    /** Drops a job: at once if it had not started, else once it ends (cancel waits for it). */
    private void abandon(Job j) {
        if (j.claim()) {
            giveBack(j);
        } else {
            abandoned.add(j);
        }
    }

    private void pruneAbandoned() {
        for (Iterator<Job> it = abandoned.iterator(); it.hasNext(); ) {
            Job j = it.next();
            if (j.done.isDone()) {
                it.remove();
                giveBack(j);
            }
        }
    }

    private synchronized void recycle(Job j) {
        giveBack(j);
    }

    /**
     * Keeps a finished job's buffers for the next job, or lets them go (zeroed) if enough are kept or
     * the buffers were dropped (a parallel reader copying its batch while another read the end).
     */
    private void giveBack(Job j) {
        if (!dropped && spareBuffers.size() < MAX_SPARE_BUFFERS) {
            spareBuffers.addFirst(j.buffers);
        } else {
            Bytes.wipe(j.cleartext);
        }
    }

    /**
     * Waits for every job in flight and drops them all; the next reads read for themselves until a
     * stream starts again. Called where no read runs: under the file's write lock.
     */
    void cancel() {
        List<Job> all;
        synchronized (this) {
            all = new ArrayList<>(jobs);
            all.addAll(abandoned);
            jobs.clear();
            abandoned.clear();
            streamEnd = -1;
        }
        for (Job j : all) {
            if (!j.claim()) {
                j.await();
            }
        }
        queued.clear();
        synchronized (this) {
            all.forEach(this::giveBack);
        }
    }

    /**
     * Cancels, then zeroes and lets go of every buffer: a read reached the end of the file (a file
     * kept open after it, as indexers and media servers do, should hold no batches), or it closes.
     */
    void dropBuffers() {
        List<Job> all;
        synchronized (this) {
            all = new ArrayList<>(jobs);
            all.addAll(abandoned);
            jobs.clear();
            abandoned.clear();
            streamEnd = -1;
        }
        for (Job j : all) {
            if (!j.claim()) {
                j.await();
            }
            Bytes.wipe(j.cleartext);
        }
        queued.clear();
        synchronized (this) {
            dropped = true;
            for (byte[][] pair; (pair = spareBuffers.pollFirst()) != null; ) {
                Bytes.wipe(pair[1]);
            }
        }
    }

    /** True if any buffer is held (for tests). */
    synchronized boolean holdsBuffers() {
        return !(jobs.isEmpty() && abandoned.isEmpty() && spareBuffers.isEmpty());
    }

    /** Jobs not yet taken (for tests). */
    synchronized int pending() {
        return jobs.size();
    }

    /** One batch read and decrypted on a reader thread. */
    private static final class Job {
        private final ReadAhead owner;
        final byte[][] buffers;
        final byte[] cleartext;
        final long first;
        final long last;
        /** The file's cleartext size when the job was made (no write runs while it exists). */
        final long size;
        private final long ciphertextPosition;
        private final int ciphertextLength;
        /** Set before {@link #done} is signalled: whether the batch was read and decrypted. */
        boolean decrypted;
        /** Taken by whoever comes first: the reader thread that runs it, or a reader that no longer wants it. */
        private final AtomicBoolean claimed = new AtomicBoolean();
        final Completion done = new Completion(SPIN_NANOS);

        Job(ReadAhead owner, byte[][] buffers, long first, long last, long size, long ciphertextPosition,
                int ciphertextLength) {
            this.owner = owner;
            this.buffers = buffers;
            this.cleartext = buffers[1];
            this.first = first;
            this.last = last;
            this.size = size;
            this.ciphertextPosition = ciphertextPosition;
            this.ciphertextLength = ciphertextLength;
        }

        /** True if this call claimed the job first: it has not started and never will. */
        boolean claim() {
            return claimed.compareAndSet(false, true);
        }

        void run() {
            if (!claim()) {
                return; // dropped before it started
            }
            try {
                byte[] stored = buffers[0];
                ByteBuffer dst = ByteBuffer.wrap(stored, 0, ciphertextLength);
                long pos = ciphertextPosition;
                while (dst.hasRemaining()) {
                    int n = owner.channel.read(dst, pos);
                    if (n < 0) {
                        break;
                    }
                    pos += n;
                }
                decrypted = !dst.hasRemaining() && owner.decryption.decrypt(stored, first, last, size, cleartext);
            } catch (IOException | RuntimeException e) {
                // Dropped: the reader reads this batch itself and meets the error there.
                decrypted = false;
            } finally {
                done.signal();
            }
        }

        /** Waits until the job has finished, spinning briefly first; ignores interrupts, which it restores. */
        void await() {
            done.await();
        }
    }
}
