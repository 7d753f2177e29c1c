package dev.coffer.webdav;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends a region of a file to a client with the reading spread over the cores: the region is cut
 * into chunks, queued in order for a pool of one worker per core, which read them through the
 * channel's positional read (in a vault every read decrypts and authenticates, and the vault lets
 * readers of one file run in parallel). The request thread writes the chunks to the socket in
 * order; it reads the next one itself only when no worker has started it, so on a machine whose
 * cores are all busy the copy degrades to a plain sequential one instead of waiting for workers to
 * be scheduled. It helps with no other chunk: where decrypting is cheap (SIV_XTS) that would delay
 * the socket writes, which then bound the copy (docs/webdav.md, "GET"). Chunks are
 * 256 KiB (64 of the vault's 4 KiB content units) in heap arrays that the vault decrypts into
 * directly and the servlet writes without another copy; at most {@code 2 * (workers + 1)} chunks per
 * request are in flight, and their buffers are reused. Server-wide, at most {@value #MAX_CHUNKS}
 * chunk buffers (16 MiB) are in use at once: a request that finds too few left (many GETs at once)
 * copies sequentially with one buffer, so many clients cannot make the server hold unbounded memory.
 *
 * <p>Not responsible for HTTP (ranges, headers: {@link ReadMethods}) or for opening and closing the
 * channel (the caller owns it; it must stay open until {@link #copy} returns).
 */
final class ReadAhead implements AutoCloseable {
    static final int CHUNK = 256 << 10;
    /** Chunk buffers the whole server may hold for read-ahead at once. */
    static final int MAX_CHUNKS = 64;
    static final String WORKERS_PROPERTY = "coffer.webdav.readAheadWorkers";
    private final int chunk;
    /** Chunks in flight per request: enough that every worker finds one to read while others wait to be written. */
    private final int depth;
    private final ExecutorService pool;
    private final Semaphore buffers;

    ReadAhead(int workers) {
        this(workers, CHUNK);
    }

    ReadAhead(int workers, int chunk) {
        this(newPool(workers), workers, chunk);
    }

    /** With the given pool of {@code workers} threads (tests: workers that never get to run). */
    ReadAhead(ExecutorService pool, int workers, int chunk) {
        this(pool, workers, chunk, MAX_CHUNKS);
    }

    /** With at most {@code maxChunks} chunk buffers server-wide (tests: a small budget). */
    ReadAhead(ExecutorService pool, int workers, int chunk, int maxChunks) {
        this.pool = pool;
        this.chunk = chunk;
        this.depth = 2 * (workers + 1);
        this.buffers = new Semaphore(Math.max(maxChunks, depth)); // one request can always read ahead
    }

    /** Chunk buffers the server could still hand out (for tests). */
    int buffersAvailable() {
        return buffers.availablePermits();
    }

    /** Null for no workers: the request thread then reads every chunk itself. */
    private static ExecutorService newPool(int workers) {
        if (workers == 0) {
            return null;
        }
        AtomicInteger n = new AtomicInteger();
        return Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "coffer-webdav-readahead-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * One worker per core (the request thread mostly writes); or as many as the system property
     * {@value #WORKERS_PROPERTY} says (0: the request thread alone, for A/B measurements).
     */
    static ReadAhead perCore() {
        int workers = Integer.getInteger(WORKERS_PROPERTY, Runtime.getRuntime().availableProcessors());
        return new ReadAhead(Math.max(0, workers));
    }

    /** Writes {@code length} bytes of {@code ch} from {@code position} to {@code out}. */
    void copy(FileChannel ch, long position, long length, OutputStream out) throws IOException {
        if (length <= chunk || !buffers.tryAcquire(depth)) {
            copySequential(ch, position, length, out); // small, or the server's read-ahead budget is in use
            return;
        }
        try {
            copyAhead(ch, position, length, out);
        } finally {
            buffers.release(depth);
        }
    }

    private void copyAhead(FileChannel ch, long position, long length, OutputStream out) throws IOException {
        ArrayDeque<Chunk> inFlight = new ArrayDeque<>();
        ArrayDeque<byte[]> free = new ArrayDeque<>();
        long end = position + length;
        long next = position;
        try {
            while (inFlight.size() < depth && next < end) {
                inFlight.add(submit(ch, next, end, free));
                next += chunk;
            }
            while (!inFlight.isEmpty()) {
                Chunk head = inFlight.poll();
                head.claimAndRead(); // reads it here unless a worker has started it (then this returns at once)
                out.write(head.await(), 0, head.length);
                free.push(head.buffer);
                if (next < end) {
                    inFlight.add(submit(ch, next, end, free));
                    next += chunk;
                }
            }
        } finally {
            // The client went away or a read failed: what nobody has started is not needed, and what a
            // worker is reading is waited for, so no read outlives this call (the caller closes the channel).
            inFlight.forEach(Chunk::cancel);
            inFlight.forEach(Chunk::awaitQuietly);
        }
    }

    private Chunk submit(FileChannel ch, long from, long end, ArrayDeque<byte[]> free) {
        byte[] buf = free.isEmpty() ? new byte[chunk] : free.pop();
        Chunk c = new Chunk(ch, from, buf, (int) Math.min(chunk, end - from));
        if (pool == null) {
            return c; // the request thread reads it
        }
        try {
            pool.execute(c);
        } catch (RejectedExecutionException e) {
            // The server is stopping: the request thread reads this chunk itself.
        }
        return c;
    }

    /** The same copy in the calling thread alone, for small regions. */
    static void copySequential(FileChannel ch, long position, long length, OutputStream out) throws IOException {
        byte[] buf = new byte[(int) Math.min(CHUNK, Math.max(length, 1))];
        long pos = position;
        long left = length;
        while (left > 0) {
            int n = (int) Math.min(buf.length, left);
            readFully(ch, ByteBuffer.wrap(buf, 0, n), pos);
            out.write(buf, 0, n);
            pos += n;
            left -= n;
        }
    }

    private static void readFully(FileChannel ch, ByteBuffer dst, long position) throws IOException {
        long pos = position;
        while (dst.hasRemaining()) {
            int n = ch.read(dst, pos);
            if (n < 0) {
                throw new IOException("file shrank while it was sent");
            }
            pos += n;
        }
    }

    /**
     * Stops the workers once the reads still running finish. Not interrupted: an interrupt inside a
     * file channel's read closes that channel, and the vault shares one ciphertext channel among all
     * handles of a file (a PUT still running would lose it).
     */
    @Override
    public void close() {
        if (pool != null) {
            pool.shutdown();
        }
    }

    /**
     * One chunk of a copy: read exactly once, by whichever thread claims it first (a worker, or the
     * request thread when it needs the chunk next), or never when cancelled first. Its outcome is published by the latch.
     */
    private static final class Chunk implements Runnable {
        private final FileChannel channel;
        private final long position;
        final byte[] buffer;
        final int length;
        private final AtomicBoolean claimed = new AtomicBoolean();
        private final CountDownLatch done = new CountDownLatch(1);
        private Throwable failure;

        Chunk(FileChannel channel, long position, byte[] buffer, int length) {
            this.channel = channel;
            this.position = position;
            this.buffer = buffer;
            this.length = length;
        }

        @Override
        public void run() {
            claimAndRead();
        }

        /** Reads the chunk unless another thread claimed it; true if this call read it. */
        boolean claimAndRead() {
            if (!claimed.compareAndSet(false, true)) {
                return false;
            }
            try {
                readFully(channel, ByteBuffer.wrap(buffer, 0, length), position);
            } catch (Throwable t) { // handed to the request thread, which rethrows it
                failure = t;
            } finally {
                done.countDown();
            }
            return true;
        }

        /** Makes sure nobody starts it; a read already running finishes and is ignored. */
        void cancel() {
            if (claimed.compareAndSet(false, true)) {
                failure = new IOException("read ahead was cancelled");
                done.countDown();
            }
        }

        /** Waits until it is read or cancelled, ignoring its outcome (a copy that is ending anyway). */
        void awaitQuietly() {
            boolean interrupted = false;
            while (true) {
                try {
                    done.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        /** Waits until it is read; the buffer, or the read's failure. */
        byte[] await() throws IOException {
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while reading ahead");
            }
            if (failure == null) {
                return buffer;
            } else if (failure instanceof IOException io) {
                throw io;
            } else if (failure instanceof UncheckedIOException u) {
                throw u.getCause();
            } else if (failure instanceof RuntimeException r) {
                throw r;
            } else if (failure instanceof Error e) {
                throw e;
            }
            throw new IOException("read ahead failed", failure);
        }
    }
}
