package dev.coffer.fuse;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.Semaphore;
import jnr.ffi.Pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reads of one FUSE handle: notices when they form a sequential stream of whole requests and then
 * runs a {@link ReadStream} ahead of them. Reads that are not sequential, files too small to gain,
 * and handles whose streams keep being invalidated (by writes elsewhere in the mount) read directly.
 */
final class StreamingReads {
    private static final Logger LOG = LoggerFactory.getLogger(StreamingReads.class);
    /** Streams need a second core: with one, the streamers would only take turns with the FUSE threads. */
    private static final boolean STREAMING = Runtime.getRuntime().availableProcessors() >= 2;
    /** Sequential requests of at least this size, in a row, before a stream starts. */
    static final int MIN_REQUEST = 64 * 1024;
    static final int STREAK = 2;
    /** A stream starts only if at least this much of the file is left to read (16 slots). */
    static final long MIN_REMAINING = 16L * ReadStream.SLOT;
    /** Streams that served fewer requests than this before they had to be replaced count as wasted; one that serves this many forgives earlier ones. */
    private static final int USEFUL = 8;
    private static final int MAX_WASTED = 3;

    private final FileChannel channel;
    private final ContentChanges changes;
    /** The mount's rings: a stream holds one permit from its start until it ends (ReadStream's onFinish). */
    private final Semaphore rings;
    private final StreamTiming timing;
    private long lastEnd = -1;
    private int streak;
    private ReadStream stream;
    private int served;
    private int wasted;
    /**
     * Streams this handle started so far: tells a request that began before the running stream from
     * one it missed. Written under this; volatile so that each request reads it without the lock.
     */
    private volatile long started;
    private boolean closed;

    StreamingReads(FileChannel channel, ContentChanges changes, Semaphore rings, StreamTiming timing) {
        this.channel = channel;
        this.changes = changes;
        this.rings = rings;
        this.timing = timing;
    }

    /** Serves the request from the running stream; -1 if it cannot, and the caller reads the channel. */
    int serve(Pointer buf, long size, long offset) {
        ReadStream s;
        synchronized (this) {
            s = stream;
        }
        if (s == null) {
            return -1;
        }
        int n = s.serve(buf, size, offset);
        if (n >= 0) {
            synchronized (this) {
                if (++served == USEFUL) {
                    wasted = 0;
                }
                lastEnd = offset + n;
            }
        }
        return n;
    }

    /** How many streams this handle has started; taken before {@link #serve} and handed to {@link #readDirectly}. */
    long streamsStarted() {
        return started;
    }

    /**
     * Records a request the caller read itself ({@code n} bytes at {@code offset}); may start a stream
     * after it. {@code streamsBefore} is {@link #streamsStarted()} from before the request asked the
     * stream: a request that was already in flight when the running stream started (the kernel has
     * two at once) was no miss of that stream, and replacing the stream for it would throw away a
     * stream that serves the next request, again and again until the handle gave up streaming.
     */
    void readDirectly(long offset, long size, int n, long streamsBefore) {
        ReadStream old = null;
        synchronized (this) {
            if (stream != null && started != streamsBefore) {
                return;
            }
            streak = offset == lastEnd ? streak + 1 : 0;
            lastEnd = offset + Math.max(n, 0);
            if (!STREAMING || closed || wasted >= MAX_WASTED || streak < STREAK || size < MIN_REQUEST || n != size
                    || remaining() < MIN_REMAINING) {
                return;
            }
            if (stream != null) {
                if (served < USEFUL) {
                    wasted++;
                }
                old = stream;
                stream = null;
            }
        }
        if (old != null) {
            old.close(); // outside the lock: it waits for a streamer in the middle of a slot
        }
        synchronized (this) {
            if (closed || stream != null || wasted >= MAX_WASTED || !rings.tryAcquire()) {
                return; // as many files as the mount allows stream already: read directly
            }
            try {
                stream = ReadStream.start(channel, changes, lastEnd, rings::release, timing);
                started++;
                served = 0;
            } catch (RuntimeException | OutOfMemoryError e) {
                // No thread or memory for a stream (start gave the permit back): the reads go on directly.
                LOG.debug("no read stream: {}", e.getClass().getName());
            }
        }
    }

    private long remaining() {
        try {
            return channel.size() - lastEnd;
        } catch (IOException e) {
            return 0; // the read itself succeeded; just no stream
        }
    }

    /** The stream running now, or null (tests look at it). */
    synchronized ReadStream stream() {
        return stream;
    }

    /** Stops the stream for good (the handle is being released). */
    void close() {
        ReadStream s;
        synchronized (this) {
            closed = true;
            s = stream;
            stream = null;
        }
        if (s != null) {
            s.close();
        }
    }
}
