package dev.coffer.fuse;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request loop of one mount, run by Java threads: each worker reads a request from the FUSE
 * device and processes it, which calls back into the {@link FuseAdapter} on that same thread.
 *
 * <p>Why not libfuse's own loops: its multithreaded loop runs callbacks on short-lived native
 * threads, and jffi attaches each one to the JVM (and detaches it again) on every callback, which
 * halves big sequential I/O; its single-threaded loop lets one slow request (a read from a slow
 * cloud folder) block every other, even {@code ls} of another folder. Here the threads are Java
 * threads that stay attached for their whole life, and the pool grows like libfuse's: when the last
 * idle worker takes a request, another one is started to wait for the next, up to {@code
 * maxWorkers}. Workers are never retired (libfuse retires them after a burst, which is where its
 * attach cost comes back), so a burst leaves a few idle threads blocked in read(2), which costs
 * nothing but their stacks and one request buffer each.
 *
 * <p>A request is processed with libfuse's channel, except an open for reading only, whose reply
 * goes through {@link NoFlushReplies} (no FLUSH at its close), and INIT, whose reply asks for
 * what libfuse 2 cannot ({@link InitReply}: READDIRPLUS, no GETATTR before a chown); a READDIRPLUS is answered by {@link ReaddirPlus}, libfuse 2 not knowing it (each
 * where that is available). A request that found an earlier write of its file lost is followed,
 * once answered, by an invalidation of the file's cached pages, sent from a thread of its own
 * ({@link WorkerRequest}).
 *
 * <p>The loop ends when the kernel ends the session (the mount is unmounted, by us or anybody);
 * the last worker out then runs {@code onEnd} once. Not responsible for mounting or unmounting.
 */
final class SessionLoop {
    private static final Logger LOG = LoggerFactory.getLogger(SessionLoop.class);
    /** sizeof(struct fuse_buf) on 64-bit Linux: size_t size, int flags, void *mem, int fd, off_t pos. */
    private static final int FUSE_BUF_STRUCT = 40;
    /** FUSE_BUF_IS_FD in {@code fuse_buf.flags}: the request is in a pipe, not in the buffer's memory. */
    private static final int FUSE_BUF_IS_FD = 1 << 1;
    /** sizeof(struct fuse_in_header), whose node ID is at {@link #NODEID_OFFSET}, the sender's pid at {@link #PID_OFFSET}. */
    private static final int FUSE_IN_HEADER = 40;
    private static final int NODEID_OFFSET = 16;
    private static final int PID_OFFSET = 32;
    private static final int EINTR = 4;
    private static final int EAGAIN = 11;

    private final LibFuseSession lib;
    private final LibC libc;
    private final Pointer session;
    private final Pointer channel;
    private final NoFlushReplies noFlushReplies; // null where libfuse's channel functions are not bound
    private final ReaddirPlus readdirPlus; // null likewise, or where requests may arrive in a pipe (splice_read)
    private final InitReply initReply; // null where libfuse's channel functions are not bound
    private final LibFuseNotify notify; // null where libfuse's notifications are not bound
    /**
     * Sends the invalidations, off the workers: the kernel's invalidation waits for every cached page
     * of the file, and pages can be held by requests still queued for a worker (read-ahead, a
     * writer's next write), so a worker sending it could wait for itself when it is the only one free.
     * Its thread starts at the first invalidation.
     */
    private final ExecutorService invalidations = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "coffer-fuse-invalidate");
        t.setDaemon(true);
        return t;
    });
    /** Held while an invalidation is sent; the end of the session takes it before libfuse frees the channel. */
    private final Object invalidationLock = new Object();
    private boolean invalidationsEnded; // guarded by invalidationLock
    private final long heldEntryNanos;
    private final long bufferSize;
    private final Runnable onEnd;
    private final Runnable beforeEachRequest;
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final WorkerPool pool;
    private volatile int error;

    /**
     * @param beforeEachRequest run on the worker before it processes each request (the adapter keeps
     *                          what one request's several calls share in thread-locals)
     */
    SessionLoop(NativeFuse natives, Pointer session, int maxWorkers, boolean readdirPlus, long heldEntryNanos,
            Runnable beforeEachRequest, Runnable onEnd) {
        this.heldEntryNanos = heldEntryNanos;
        this.lib = natives.fuse;
        this.libc = natives.libc;
        this.session = session;
        this.channel = lib.fuse_session_next_chan(session, null);
        this.bufferSize = lib.fuse_chan_bufsize(channel);
        this.noFlushReplies = natives.channels.map(this::noFlushReplies).orElse(null);
        this.readdirPlus = readdirPlus ? natives.channels.map(c -> readdirPlus(c, beforeEachRequest)).orElse(null) : null;
        this.initReply = natives.channels.map(c -> initReply(c, this.readdirPlus != null)).orElse(null);
        this.notify = natives.notify.orElse(null);
        this.pool = new WorkerPool(maxWorkers, WorkerPool.DAEMON_THREADS, this::work, "coffer-fuse-");
        this.onEnd = onEnd;
        this.beforeEachRequest = beforeEachRequest;
    }

    /** The second channel, or null if it cannot be made: the mount then serves every close's FLUSH. */
    private NoFlushReplies noFlushReplies(LibFuseChannels channels) {
        try {
            return new NoFlushReplies(channels, libc, channel, bufferSize);
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("no FOPEN_NOFLUSH channel: {}", e.getClass().getName());
            return null;
        }
    }

    /** The INIT reply's channel, or null if it cannot be made: the mount then asks only for what libfuse 2 knows. */
    private InitReply initReply(LibFuseChannels channels, boolean readdirPlus) {
        try {
            return new InitReply(channels, libc, channel, bufferSize, readdirPlus);
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("no INIT reply channel: {}", e.getClass().getName());
            return null;
        }
    }

    /** The READDIRPLUS answerer, or null if it cannot be made: listings then stay plain READDIRs. */
    private ReaddirPlus readdirPlus(LibFuseChannels channels, Runnable beforeEachRequest) {
        try {
            return new ReaddirPlus(channels, libc, session, channel, bufferSize, heldEntryNanos, beforeEachRequest);
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("no READDIRPLUS: {}", e.getClass().getName());
            return null;
        }
    }

    /** Starts the first worker; throws if no thread can be started (the caller then tears the mount down). */
    void start() {
        if (!pool.startFirst()) {
            throw new IllegalStateException("no thread could be started to serve the mount");
        }
    }

    /** Completes when the last worker has left the loop and {@code onEnd} has run. */
    CompletableFuture<Void> ended() {
        return ended;
    }

    /** Worker threads started so far (never more than maxWorkers). */
    int workersStarted() {
        return pool.started();
    }

    /** Lookups made for READDIRPLUS replies so far. */
    long readdirPlusLookups() {
        return readdirPlus == null ? 0 : readdirPlus.lookups();
    }

    /** READDIRPLUS requests answered so far; 0 where they are not asked for. */
    long readdirPlusAnswered() {
        return readdirPlus == null ? 0 : readdirPlus.answered();
    }

    /** The negative errno that ended the loop, or 0 for a normal end (unmounted). */
    int error() {
        return error;
    }

    private void work() {
        Worker worker;
        try {
            worker = new Worker();
        } catch (RuntimeException | Error e) { // its native buffers: this worker goes, the others serve on
            LOG.warn("a FUSE worker could not start: {}", e.getClass().getName());
            leave();
            return;
        }
        try {
            while (worker.serveOne()) {
                // one request per call: the loop itself stays in the interpreter (a worker thread
                // enters it once), so what each request runs is in a method the JIT compiles
            }
        } catch (Throwable t) { // never expected; the session must still end cleanly
            LOG.warn("FUSE worker failed: {}", t.getClass().getName());
            lib.fuse_session_exit(session);
        } finally {
            leave();
        }
    }

    /** One worker's request buffer and the structs libfuse fills with each request. */
    private final class Worker {
        private final Pointer memory;
        private final Pointer buf;
        private final Pointer channelRef;
        private final WorkerRequest request = WorkerRequest.forThisWorker();

        Worker() {
            if (notify != null) {
                // Offset -1: the attributes only, no pages, so the kernel waits for nothing (a worker may send it).
                request.dropAttributesWith(nodeid -> notify.fuse_lowlevel_notify_inval_inode(channel, nodeid, -1, 0));
            }
            Runtime runtime = Runtime.getSystemRuntime();
            memory = Memory.allocateDirect(runtime, bufferSize);
            buf = Memory.allocateDirect(runtime, FUSE_BUF_STRUCT);
            channelRef = Memory.allocateDirect(runtime, runtime.addressSize());
        }

        /** Reads one request and processes it; false once the session has ended. */
        boolean serveOne() {
            if (lib.fuse_session_exited(session) != 0) {
                return false;
            }
            buf.setMemory(0, FUSE_BUF_STRUCT, (byte) 0);
            buf.putLong(0, bufferSize);
            buf.putPointer(16, memory);
            channelRef.putPointer(0, channel);
            int res = lib.fuse_session_receive_buf(session, buf, channelRef);
            if (res == -EINTR || res == -EAGAIN) {
                return true;
            }
            if (res <= 0) {
                if (res < 0) {
                    error = res;
                    lib.fuse_session_exit(session);
                }
                return false;
            }
            busy();
            Pointer received = channelRef.getPointer(0);
            boolean inMemory = (buf.getInt(8) & FUSE_BUF_IS_FD) == 0; // not left in a pipe (-o splice_read)
            int opcode = inMemory && res >= 8 ? memory.getInt(4) : -1;
            if (readdirPlus != null && inMemory) {
                readdirPlus.note(memory, res); // an entry the kernel is given: no lookup for it in a listing soon
            }
            boolean hasHeader = inMemory && res >= FUSE_IN_HEADER;
            long nodeid = hasHeader ? memory.getLong(NODEID_OFFSET) : 0;
            request.start(hasHeader ? memory.getInt(PID_OFFSET) : 0, nodeid);
            if (readdirPlus != null && opcode == ReaddirPlus.FUSE_READDIRPLUS) {
                readdirPlus.answer(memory, res); // libfuse 2 does not know it
            } else {
                beforeEachRequest.run();
                Pointer replyChannel = noFlushReplies == null || !inMemory ? received : noFlushReplies.channelFor(memory, res, received);
                if (initReply != null && opcode == InitReply.FUSE_INIT) {
                    replyChannel = initReply.channelFor(memory, res, replyChannel);
                }
                lib.fuse_session_process_buf(session, buf, replyChannel);
                if (request.takeLostWrite() && notify != null && nodeid != 0) {
                    invalidate(nodeid);
                }
            }
            pool.idleAgain();
            return true;
        }
    }

    /** Has the kernel drop the cached pages and attributes of node {@code nodeid} ({@link WorkerRequest}), soon. */
    private void invalidate(long nodeid) {
        try {
            invalidations.execute(() -> {
                synchronized (invalidationLock) {
                    if (invalidationsEnded) {
                        return;
                    }
                    int res = notify.fuse_lowlevel_notify_inval_inode(channel, nodeid, 0, 0);
                    if (res != 0) {
                        LOG.debug("cache invalidation after a lost write: errno {}", -res);
                    }
                }
            });
        } catch (RejectedExecutionException ending) {
            // the mount is going away: nothing is cached after it
        }
    }

    private void busy() {
        pool.busy();
    }

    private void leave() {
        if (pool.leave()) {
            synchronized (invalidationLock) {
                invalidationsEnded = true; // waits for one being sent: onEnd's teardown frees the channel
            }
            invalidations.shutdownNow();
            try {
                onEnd.run();
            } finally {
                if (noFlushReplies != null) {
                    noFlushReplies.close(); // no request is processed any more
                }
                if (readdirPlus != null) {
                    readdirPlus.close();
                }
                if (initReply != null) {
                    initReply.close();
                }
                ended.complete(null);
            }
        }
    }
}
