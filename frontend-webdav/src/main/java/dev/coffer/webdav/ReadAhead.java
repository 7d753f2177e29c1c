package dev.coffer.webdav;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends a region of a file to a client with the reading done ahead: chunks are queued for a small
 * pool of workers, which read them through the channel's positional read while the request thread
 * writes earlier chunks to the socket. In a vault every read decrypts and authenticates, and the
 * vault lets readers of one file run in parallel, so on an idle machine the workers and the
 * request thread decrypt on all cores at once. The request thread never waits for a chunk nobody
 * has started: it reads that one itself (the pool then skips it), so on a machine whose cores are
 * all busy the copy degrades to a plain sequential one instead of waiting for workers to be
 * scheduled. Chunks are 256 KiB (64 of the vault's 4 KiB content units) in heap arrays that the
 * vault decrypts into directly and the servlet writes without another copy; at most workers + 2
 * chunks per request are in flight, and their buffers are reused.
 *
 * <p>Not responsible for HTTP (ranges, headers: {@link ReadMethods}) or for opening and closing the
 * channel (the caller owns it; it must stay open until {@link #copy} returns).
 */
final class ReadAhead implements AutoCloseable {
    static final int CHUNK = 256 << 10;
    private final int chunk;
    /** Chunks queued per request: enough that a worker always finds the next one while the others are written. */
    private final int depth;
    private final ExecutorService pool;

    ReadAhead(int workers) {
        this(workers, CHUNK);
    }

    ReadAhead(int workers, int chunk) {
        AtomicInteger n = new AtomicInteger();
        this.chunk = chunk;
        this.depth = workers + 2;
        this.pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "coffer-webdav-readahead-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** One worker per core besides the request thread's own (at least one). */
    static ReadAhead perCore() {
        return new ReadAhead(Math.max(1, Runtime.getRuntime().availableProcessors() - 1));
    }

    /** Writes {@code length} bytes of {@code ch} from {@code position} to {@code out}. */
    void copy(FileChannel ch, long position, long length, OutputStream out) throws IOException {
        if (length <= chunk) {
            copySequential(ch, position, length, out);
            return;
        }
        ArrayDeque<FutureTask<byte[]>> inFlight = new ArrayDeque<>();
        ArrayDeque<byte[]> free = new ArrayDeque<>();
        long end = position + length;
        long next = position;
        try {
            while (inFlight.size() < depth && next < end) {
                inFlight.add(submit(ch, next, end, free));
                next += chunk;
            }
            long written = position;
            while (!inFlight.isEmpty()) {
                FutureTask<byte[]> task = inFlight.poll();
                task.run(); // reads it here unless a worker has started it (then this returns at once)
                byte[] data = await(task);
                int n = (int) Math.min(chunk, end - written);
                out.write(data, 0, n);
                written += n;
                free.push(data);
                if (next < end) {
                    inFlight.add(submit(ch, next, end, free));
                    next += chunk;
                }
            }
        } finally {
            // The client went away or a read failed: what is still being read is not needed.
            inFlight.forEach(f -> f.cancel(false));
        }
    }

    private FutureTask<byte[]> submit(FileChannel ch, long from, long end, ArrayDeque<byte[]> free) {
        byte[] buf = free.isEmpty() ? new byte[chunk] : free.pop();
        int len = (int) Math.min(chunk, end - from);
        FutureTask<byte[]> task = new FutureTask<>(() -> {
            readFully(ch, ByteBuffer.wrap(buf, 0, len), from);
            return buf;
        });
        pool.execute(task);
        return task;
    }

    private static byte[] await(Future<byte[]> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading ahead");
        } catch (CancellationException e) {
            throw new IOException("read ahead was cancelled", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            } else if (c instanceof UncheckedIOException u) {
                throw u.getCause();
            } else if (c instanceof RuntimeException r) {
                throw r;
            }
            throw new IOException("read ahead failed", c);
        }
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
        pool.shutdown();
    }
}
