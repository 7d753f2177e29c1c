package dev.coffer.core.content;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Read-ahead of one open file's ciphertext for a reader that reads sequentially: while the reader
 * decrypts one batch, a reader thread reads the ciphertext of the next batch from the store, so the
 * two overlap (serially a SIV_XTS read is capped near half the cryptor's speed: the pread of a batch
 * takes about as long as its decryption).
 *
 * <p>It reads ciphertext only: it holds no keys and no cleartext, and decides nothing about
 * authenticity; the reader decrypts what it hands back, so a damaged unit is reported by the read that
 * reaches it, as without read-ahead. A failed or short read-ahead is dropped silently (the reader
 * then reads itself and gets the error). Memory: two batch buffers at most, made on first use.
 *
 * <p>Not thread-safe: {@link OpenFile} calls it from the one read that holds the file's own cryptor
 * (under the read lock), or under its write lock ({@link #cancel}: every change and close cancels
 * first, waiting for a read-ahead in flight, so no stale ciphertext outlives a write).
 */
final class ReadAhead {
    /** Calls that read fewer units are not read ahead for: handing a small read to a thread costs more than it saves. */
    static final int MIN_UNITS = 8;
    /** How long a waiting reader spins before it parks: a read-ahead about to end saves a wake-up. */
    private static final long SPIN_NANOS = 20_000;
    private static final AtomicInteger THREADS = new AtomicInteger();
    /**
     * Reader threads shared by every open file: a hand-over goes to an idle one, or starts one (so
     * the first seconds of a stream start a few), ended after a minute idle. Measured against a
     * fixed pool waiting on a queue, which was slower here (256 MiB SIV_XTS median 90.7 vs 77.5 ms):
     * a thread parked on a queue wakes later than one that has just returned and still polls. Daemon
     * threads; never interrupted (an interrupt during I/O would close the shared ciphertext channel).
     * A read-ahead not yet started when its reader arrives is taken back and read by the reader.
     */
    private static final Executor READERS = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
            new SynchronousQueue<>(), task -> {
                Thread t = new Thread(task, "coffer-reader-" + THREADS.incrementAndGet());
                t.setDaemon(true);
                return t;
            });

    private final FileChannel channel;
    private final byte[][] buffers = new byte[2][];
    /** Which of {@link #buffers} the next read-ahead fills: never the one the reader decrypts from. */
    private int nextBuffer;
    private Job job;
    /** The cleartext position a sequential read would start at: where the last read ended. */
    private long expectedNext;

    ReadAhead(FileChannel channel) {
        this.channel = channel;
    }

    /** True if a read from {@code from} continues the last one. */
    boolean sequential(long from) {
        return from == expectedNext;
    }

    /** Records where the last read ended. */
    void readUpTo(long to) {
        expectedNext = to;
    }

    /**
     * The buffer holding ciphertext {@code [position, position + length)} from offset 0, if the
     * read-ahead in flight or done covers it (waiting for it to finish); else null, and any read-ahead
     * of another range is dropped. Either way none is in flight afterwards.
     */
    byte[] take(long position, int length) {
        Job j = job;
        if (j == null) {
            return null;
        }
        job = null;
        if (j.claim()) {
            return null; // not started yet: reading now beats waiting for a reader thread
        }
        j.await();
        if (j.complete && j.position == position && length <= j.length) {
            return j.buffer;
        }
        return null;
    }

    /** Starts reading ciphertext {@code [position, position + length)} on a reader thread. */
    void start(long position, int length) {
        cancel();
        byte[] buffer = buffers[nextBuffer];
        if (buffer == null || buffer.length < length) {
            buffer = new byte[length];
            buffers[nextBuffer] = buffer;
        }
        nextBuffer = 1 - nextBuffer;
        Job j = new Job(channel, buffer, position, length);
        try {
            READERS.execute(j);
        } catch (Throwable noThread) { // e.g. no native thread left: no read-ahead then
            return;
        }
        job = j;
    }

    /** Waits for a read-ahead in flight and drops it; the next read reads for itself. */
    void cancel() {
        Job j = job;
        if (j != null) {
            job = null;
            if (!j.claim()) {
                j.await();
            }
        }
    }

    /** True while a read-ahead is in flight or done and not yet taken (for tests). */
    boolean pending() {
        return job != null;
    }

    /** One positional read of ciphertext into a buffer, on a reader thread. */
    private static final class Job implements Runnable {
        private final FileChannel channel;
        final byte[] buffer;
        final long position;
        final int length;
        /** Set before {@link #done}: whether all {@link #length} bytes were read. */
        boolean complete;
        /** Taken by whoever comes first: the reader thread that runs it, or a reader that no longer wants it. */
        private final AtomicBoolean claimed = new AtomicBoolean();
        private volatile boolean done;
        private volatile Thread waiter;

        Job(FileChannel channel, byte[] buffer, long position, int length) {
            this.channel = channel;
            this.buffer = buffer;
            this.position = position;
            this.length = length;
        }

        /** True if this call claimed the job first: it has not started and never will. */
        boolean claim() {
            return claimed.compareAndSet(false, true);
        }

        @Override
        public void run() {
            if (!claim()) {
                return; // dropped before it started
            }
            try {
                ByteBuffer dst = ByteBuffer.wrap(buffer, 0, length);
                long pos = position;
                while (dst.hasRemaining()) {
                    int n = channel.read(dst, pos);
                    if (n < 0) {
                        break;
                    }
                    pos += n;
                }
                complete = !dst.hasRemaining();
            } catch (IOException | RuntimeException e) {
                // Dropped: the reader reads this range itself and meets the error there.
                complete = false;
            } finally {
                done = true;
                Thread w = waiter;
                if (w != null) {
                    LockSupport.unpark(w);
                }
            }
        }

        /** Waits until the read has finished, spinning briefly first; ignores interrupts, which it restores. */
        void await() {
            if (done) {
                return;
            }
            long spinUntil = System.nanoTime() + SPIN_NANOS;
            while (!done && System.nanoTime() < spinUntil) {
                Thread.onSpinWait();
            }
            waiter = Thread.currentThread();
            boolean interrupted = false;
            while (!done) {
                LockSupport.park(this);
                interrupted |= Thread.interrupted();
            }
            waiter = null;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
