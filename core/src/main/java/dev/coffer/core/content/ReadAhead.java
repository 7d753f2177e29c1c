package dev.coffer.core.content;

import dev.coffer.core.crypto.Bytes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Decrypt-ahead of one open file for a reader that reads it front to back: before the reader
 * decrypts a batch itself, it hands the next batch(es) to reader threads ({@link ReaderThreads}),
 * which read and decrypt them while it works; the read that reaches such a batch copies it out. On
 * two cores the reader and one reader thread take turns, so one stream is decrypted on both (a
 * {@code FileChannel} caller, {@code coffer export}); serially a read waits for the pread and the
 * decryption of each batch in turn.
 *
 * <p>Batches lie on a fixed grid ({@code batchUnits} units from unit 0), so a job serves any read
 * that overlaps it, whatever its size or start. It decides which batches to fetch and hands them
 * over; decryption and every judgement of authenticity are the open file's ({@link UnitDecryption},
 * with a spare cryptor): a batch that failed (a damaged unit, a failed read) is dropped silently and
 * the reader reads and decrypts it itself, so the error is reported by the read that reaches it,
 * naming the file, as without read-ahead. A batch not yet started when its reader arrives is taken
 * back and read by the reader.
 *
 * <p>Once two reads of the file have run at the same time ({@link #parallelReadsSeen}: a FUSE mount's
 * workers serving the kernel's read requests, a WebDAV GET's own read-ahead), it drops everything
 * and hands out nothing more: those readers already decrypt on every core, and batches handed out
 * besides only cost CPU (measured: a fresh-mount 1 GiB FUSE read used 0.3 CPU-s more, no faster).
 *
 * <p>Cleartext: a job holds one batch of it in a heap buffer until the stream has copied it out; the
 * buffers are reused and zeroed by {@link #drop} (every change and close of the file, and a read
 * that reaches its end). A job the stream jumped away from (or dropped for parallel reads) has its
 * cleartext zeroed as soon as it ends, and its buffers are not reused. Memory: at most {@link #DEPTH} jobs and one spare buffer pair.
 *
 * <p>Thread-safe. A reader copies a batch under this object's lock, waiting there for a job in
 * flight: only one stream uses the jobs (parallel readers drop them), so nobody else waits. {@link
 * #drop} waits for jobs in flight, so none outlives the cryptors or the channel it uses.
 */
final class ReadAhead {
    /** Reads of fewer units do not start a stream: handing a small read's successor to a thread costs more than it saves. */
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
    private final ReaderThreads threads = new ReaderThreads(DEPTH);
    /** Jobs not yet copied out, in file order; guarded by {@code this}. */
    private final ArrayDeque<Job> jobs = new ArrayDeque<>();
    /** Jobs dropped while they ran: {@link #drop} still waits for them. Guarded by {@code this}. */
    private final List<Job> abandoned = new ArrayList<>();
    /** An idle {stored, cleartext} buffer pair, or null; guarded by {@code this}. */
    private byte[][] spareBuffers;
    /** Where the most recent read ended, or -1 before the first: a file's first read starts no stream. */
    private long lastEnd = -1;
    /** The furthest end of the current sequential stream, or -1 if none. */
    private long streamEnd = -1;
    /** See the class comment. */
    private volatile boolean parallelReads;
    /** Batches copied out of jobs (for tests). */
    private long served;

    ReadAhead(FileChannel channel, SectorLayout layout, int batchUnits, UnitDecryption decryption) {
        this.channel = channel;
        this.layout = layout;
        this.batchUnits = batchUnits;
        this.decryption = decryption;
    }

    /** The first unit of the grid batch holding {@code unit}. */
    long batchOf(long unit) {
        return unit - unit % batchUnits;
    }

    /**
     * Copies cleartext {@code [from, to)} ∩ units {@code [first, last]} (one grid batch or part of
     * it) into {@code out} (at {@code outOff} for {@code from}) if a job decrypted the batch, waiting
     * for it if it is running. Returns false if there is none, it failed, or it had not started
     * (then it never will): the caller reads those units itself.
     */
    boolean copyTo(long first, long last, long from, long to, byte[] out, int outOff) {
        if (parallelReads) {
            return false; // no jobs once reads ran in parallel: no need to take the lock on every batch
        }
        return copyFromJob(first, last, from, to, out, outOff);
    }

    private synchronized boolean copyFromJob(long first, long last, long from, long to, byte[] out, int outOff) {
        Job j = null;
        for (Job candidate : jobs) {
            if (candidate.first <= first && last <= candidate.last) {
                j = candidate;
                break;
            }
        }
        if (j == null) {
            return false;
        }
        if (j.claim()) { // not started: reading now beats waiting for a reader thread
            jobs.remove(j);
            giveBack(j);
            return false;
        }
        j.await();
        if (!j.decrypted) {
            jobs.remove(j);
            giveBack(j);
            return false;
        }
        long copyFrom = Math.max(from, SectorLayout.unitStart(first));
        long copyTo = Math.min(to, SectorLayout.unitStart(last) + layout.unitLength(last, j.size));
        System.arraycopy(j.cleartext, (int) (copyFrom - SectorLayout.unitStart(j.first)), out,
                outOff + (int) (copyFrom - from), (int) (copyTo - copyFrom));
        if (last == j.last) { // the stream has passed it
            jobs.remove(j);
            giveBack(j);
        }
        served++;
        return true;
    }

    /**
     * Called by a read about to decrypt the units {@code [batchStart, batchEnd]} (of one grid batch)
     * itself: first hands the next grid batches without a job to reader threads, until {@link #DEPTH}
     * jobs lie after {@code batchEnd}. Those are the read's own later batches ({@code last} is its
     * last unit) and, if the read continues a sequential stream (it starts where the last read ended,
     * or within the few batches before the stream's end that parallel readers may still be reading)
     * and is at least {@link #MIN_UNITS} long, the batches after its end. Jobs the stream has passed
     * or jumped away from are dropped.
     */
    void handOut(long batchStart, long batchEnd, long last, long from, long to, long size) {
        if (parallelReads) {
            return; // jobs dropped when it was set are waited for and zeroed by drop()
        }
        handOutLocked(batchStart, batchEnd, last, from, to, size);
    }

    private synchronized void handOutLocked(long batchStart, long batchEnd, long last, long from, long to, long size) {
        pruneAbandoned();
        if (parallelReads) {
            return;
        }
        long firstUnit = layout.unitOf(from, size);
        long fileLast = layout.unitCount(size) - 1;
        boolean prefetch = last - firstUnit + 1 >= MIN_UNITS && to < size && continuesStream(from);
        long next = batchOf(batchEnd) + batchUnits;
        long limit = prefetch ? Math.min(fileLast, next + (long) DEPTH * batchUnits - 1) : last;
        int ahead = 0;
        for (Iterator<Job> it = jobs.iterator(); it.hasNext(); ) {
            Job j = it.next();
            if (j.last < firstUnit || j.first > limit) {
                it.remove();
                abandon(j);
            } else if (j.first > batchEnd) {
                ahead++;
            }
        }
        for (long start = next; ahead < DEPTH && start <= limit; start += batchUnits) {
            if (!hasJob(start)) {
                startJob(start, Math.min(fileLast, start + batchUnits - 1), size);
                ahead++;
            }
        }
    }

    private boolean continuesStream(long from) {
        return from == lastEnd || inStream(from);
    }

    private boolean inStream(long from) {
        return streamEnd >= 0 && from <= streamEnd
                && from >= streamEnd - (long) (DEPTH + 2) * batchUnits * SectorLayout.SECTOR;
    }

    /** Records a read of cleartext {@code [from, to)}: where a sequential stream continues, or that it ended. */
    void readDone(long from, long to) {
        if (!parallelReads) {
            recordRead(from, to);
        }
    }

    private synchronized void recordRead(long from, long to) {
        if (inStream(from)) {
            streamEnd = Math.max(streamEnd, to);
        } else if (from == lastEnd) {
            streamEnd = to;
        } else {
            streamEnd = -1;
        }
        lastEnd = to;
    }

    /** Notes that two reads of the file ran at the same time: drops every job and hands out nothing more. */
    void parallelReadsSeen() {
        if (parallelReads) {
            return;
        }
        synchronized (this) {
            parallelReads = true;
            while (!jobs.isEmpty()) {
                abandon(jobs.pollFirst());
            }
            threads.clear();
            if (spareBuffers != null) {
                Bytes.wipe(spareBuffers[1]);
                spareBuffers = null;
            }
        }
    }

    private boolean hasJob(long first) {
        for (Job j : jobs) {
            if (j.first == first) {
                return true;
            }
        }
        return false;
    }

    private void startJob(long first, long last, long size) {
        long ctStart = layout.storedUnitOffset(first);
        int ctLen = (int) (layout.storedUnitOffset(last) + layout.storedUnitLength(last, size) - ctStart);
        byte[][] pair = spareBuffers;
        spareBuffers = null;
        if (pair == null) {
            pair = new byte[][] {
                new byte[batchUnits * (layout.storedUnitSize() + SectorLayout.MIN_XTS)],
                new byte[batchUnits * SectorLayout.SECTOR + SectorLayout.MIN_XTS]};
        }
        Job j = new Job(this, pair, first, last, size, ctStart, ctLen);
        jobs.addLast(j);
        threads.submit(j);
    }

    /**
     * Drops a job: at once if it had not started, else its cleartext is zeroed as soon as it ends (by
     * whichever of this thread and the job's sees the other's mark) and its buffers are never used
     * again: the job's thread may still be zeroing them when it is pruned ({@link #drop} waits for it).
     */
    private void abandon(Job j) {
        if (j.claim()) {
            giveBack(j);
        } else {
            j.abandon();
            abandoned.add(j);
        }
        if (spareBuffers != null) {
            Bytes.wipe(spareBuffers[1]); // idle, it still holds the batch last copied out of the stream dropped here
        }
    }

    private void pruneAbandoned() {
        abandoned.removeIf(j -> j.done.isDone());
    }

    /** Keeps a finished job's buffers for the next job, or zeroes them if one pair is kept already or no jobs will come. */
    private void giveBack(Job j) {
        if (spareBuffers == null && !parallelReads) {
            spareBuffers = j.buffers;
        } else {
            Bytes.wipe(j.cleartext);
        }
    }

    /**
     * Waits for every job in flight, drops them all and zeroes and lets go of every buffer; the next
     * reads read for themselves until a stream starts again. Called by every change and by close
     * (under the file's write lock, so no read runs) and by a read that reached the end of the file
     * (a file kept open after it, as indexers and media servers do, should hold no cleartext).
     */
    void drop() {
        List<Job> all;
        synchronized (this) {
            streamEnd = -1;
            if (jobs.isEmpty() && abandoned.isEmpty() && spareBuffers == null) {
                return;
            }
            all = new ArrayList<>(jobs);
            all.addAll(abandoned);
            jobs.clear();
            abandoned.clear();
            threads.clear();
            if (spareBuffers != null) {
                Bytes.wipe(spareBuffers[1]);
                spareBuffers = null;
            }
        }
        for (Job j : all) {
            if (!j.claim()) {
                j.await();
            }
            Bytes.wipe(j.cleartext);
        }
    }

    /** True if any buffer is held (for tests). */
    synchronized boolean holdsBuffers() {
        return !(jobs.isEmpty() && abandoned.isEmpty() && spareBuffers == null);
    }

    /** Jobs not yet copied out (for tests). */
    synchronized int pending() {
        return jobs.size();
    }

    /** Batches copied out of jobs so far (for tests). */
    synchronized long served() {
        return served;
    }

    /** One batch read and decrypted on a reader thread. */
    private static final class Job implements Runnable {
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
        /** Set once nobody will copy this batch out: its cleartext is zeroed when the job ends. */
        private volatile boolean abandoned;
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

        /**
         * Marks a started job as dropped and zeroes its cleartext if it has ended; if it is still
         * running, it zeroes it itself when it ends ({@link #run} signals, then reads this mark:
         * of the two volatile write-then-read pairs, at least one sees the other's write).
         */
        void abandon() {
            abandoned = true;
            if (done.isDone()) {
                Bytes.wipe(cleartext);
            }
        }

        /** True if this call claimed the job first: it has not started and never will. */
        boolean claim() {
            return claimed.compareAndSet(false, true);
        }

        @Override
        public void run() {
            if (!claim()) {
                return; // taken back before it started
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
                if (abandoned) {
                    Bytes.wipe(cleartext); // dropped while it ran: nobody copies it out
                }
            }
        }

        /** Waits until the job has finished, spinning briefly first; ignores interrupts, which it restores. */
        void await() {
            done.await();
        }
    }
}
