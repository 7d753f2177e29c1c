package dev.coffer.core.content;

import dev.coffer.core.crypto.Bytes;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The streaming appends of one open file that were acknowledged before they were encrypted: each
 * call copies its cleartext in ({@link #offer}) and returns, and one shared runner thread at a time
 * encrypts and writes the queued appends in order ({@link Appender}), so that a writer's next request
 * overlaps the encryption of its last one. While anything is queued or running, the file's append
 * state (its cryptor, scratch buffers and last-unit copy) belongs to the runner: the file's other
 * operations first wait until the queue is idle ({@link #awaitIdle}).
 *
 * <p>After a failure the runner stops, drops (and wipes) every later append and keeps the failure
 * with the size to restore, the size before the failed append; the queue refuses new appends until
 * {@link #awaitIdle} has handed that failure to the file. The queued cleartext is wiped as soon as
 * its append ran or was dropped. It does not decide what may be queued; {@link OpenFile} does.
 */
final class AppendQueue {
    /** Appends acknowledged and not yet written, at most: 2 MiB of 128 KiB requests. */
    static final int DEPTH = 16;
    /** Runner threads shared by every open file: one per file with a queue running. */
    private static final Executor RUNNERS = DaemonThreads.pool("coffer-appender-");
    /** Queues still running: the JVM's exit waits for them, as it does for a write running behind. */
    private static final Set<AppendQueue> RUNNING = ConcurrentHashMap.newKeySet();
    private static final long EXIT_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    /**
     * Cleartext buffers an idle queue keeps for its file's next stream: none, so a file left open
     * after a stream (a download kept open, a log) holds no 128 KiB buffers; a stream's runner
     * rarely goes idle before its end, so the buffers are still reused while it lasts.
     */
    private static final int IDLE_SPARES = 0;

    static {
        ExitWaits.addHook("coffer-appender-exit", AppendQueue::awaitRunningAtExit);
    }

    /** One queued append: cleartext {@code [position, position + length)}, growing the file from {@code oldSize} to {@code newSize}. */
    record Append(long oldSize, long newSize, long position, byte[] cleartext, int length) {}

    /** What the file does with a queued append, on the runner's thread. */
    @FunctionalInterface
    interface Appender {
        void append(Append append) throws Exception;
    }

    /** A queued append that failed: its error and the file's size before it. */
    record Failure(Throwable cause, long restoreSize) {}

    private final Appender appender;
    private final int bufferSize;
    private final int idleSpares;
    private final ArrayDeque<Append> queued = new ArrayDeque<>();
    /** Cleartext buffers for the next appends: wiped before they come back here. */
    private final ArrayDeque<byte[]> spareBuffers = new ArrayDeque<>();
    /** A runner owns the file's append state (under this object's monitor). */
    private boolean running;
    private Failure failure;
    /** Running, or holding a failure: readable without the monitor by the file's readers. */
    private volatile boolean busy;

    /** @param bufferSize the largest append's cleartext, in bytes */
    AppendQueue(Appender appender, int bufferSize) {
        this(appender, bufferSize, IDLE_SPARES);
    }

    /** As above, keeping {@code idleSpares} buffers while idle (tests: to look at them). */
    AppendQueue(Appender appender, int bufferSize, int idleSpares) {
        this.appender = appender;
        this.bufferSize = bufferSize;
        this.idleSpares = idleSpares;
    }

    /**
     * Whether appends are queued or running, or a failure waits for {@link #awaitIdle}. False means
     * the file's append state is the caller's (under the file's lock), and stays so until it offers.
     */
    boolean busy() {
        return busy;
    }

    /** The most bytes one append may hold ({@link #offer} refuses more). */
    int capacity() {
        return bufferSize;
    }

    /**
     * Queues a copy of {@code data[off, off + len)} to be appended (waiting while {@link #DEPTH} are
     * queued) and starts a runner if none runs. Called under the file's lock. Returns false, queuing
     * nothing, once an append has failed and {@link #awaitIdle} has not taken that failure yet, and
     * once the JVM's exit has begun ({@link ExitWaits#exiting}): its hook may have ended its wait
     * already, and the runner would stop mid-append when the JVM halts.
     */
    boolean offer(long oldSize, long newSize, long position, byte[] data, int off, int len) {
        if (len > bufferSize) {
            throw new IllegalArgumentException("an append of " + len + " bytes does not fit the queue's buffers");
        }
        byte[] copy;
        synchronized (this) {
            boolean interrupted = false;
            while (queued.size() >= DEPTH && failure == null) {
                interrupted |= waitUninterruptibly();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (failure != null) {
                return false;
            }
            copy = spareBuffers.poll();
        }
        if (copy == null) {
            copy = new byte[bufferSize];
        }
        System.arraycopy(data, off, copy, 0, len); // outside the monitor: the runner goes on meanwhile
        Append append;
        try {
            append = new Append(oldSize, newSize, position, copy, len);
        } catch (Throwable noMemory) {
            Bytes.wipe(copy);
            throw noMemory;
        }
        boolean start;
        synchronized (this) {
            if (failure != null) { // the runner failed meanwhile: nothing of this call is queued
                recycle(copy);
                return false;
            }
            start = !running;
            if (start) {
                RUNNING.add(this); // may throw (no memory): then nothing is queued and nothing runs
                running = true;
                busy = true;
            }
            // Read after the registration, so that a hook that starts later waits for this queue;
            // a queue already running was registered by the offer that started it.
            if (ExitWaits.exiting()) {
                recycle(copy);
                if (start) {
                    stop();
                }
                return false;
            }
            queued.add(append);
        }
        if (start) {
            try {
                RUNNERS.execute(this::runQueued);
            } catch (Throwable noThread) { // e.g. no native thread left: append here rather than never
                runQueued();
            }
        }
        return true;
    }

    /** The runner: appends until the queue is empty or an append fails. */
    private void runQueued() {
        while (true) {
            Append next;
            synchronized (this) {
                next = queued.poll();
                if (next == null) {
                    stop();
                    return;
                }
                notifyAll(); // room for an offer waiting on a full queue
            }
            Throwable failed = null;
            try {
                appender.append(next);
            } catch (Throwable t) { // kept for the file: nothing may get lost on this thread
                failed = t;
            }
            synchronized (this) {
                recycle(next.cleartext());
                if (failed != null) {
                    failure = new Failure(failed, next.oldSize());
                    for (Append dropped; (dropped = queued.poll()) != null; ) {
                        recycle(dropped.cleartext());
                    }
                    stop();
                    return;
                }
            }
        }
    }

    /**
     * Under the monitor: the runner ends; a failure keeps the queue busy until it is taken. A file
     * left open after a stream keeps only {@link #idleSpares} buffers, not the whole queue's.
     */
    private void stop() {
        while (spareBuffers.size() > idleSpares) {
            spareBuffers.poll();
        }
        running = false;
        busy = failure != null;
        RUNNING.remove(this);
        notifyAll();
    }

    /** Wipes a cleartext buffer and keeps it for the next append (under the monitor). */
    private void recycle(byte[] buffer) {
        Bytes.wipe(buffer);
        if (spareBuffers.size() <= DEPTH) {
            spareBuffers.add(buffer);
        }
    }

    /**
     * Waits until nothing is queued or running, so that the file's append state is the caller's
     * again; returns the failure that stopped the runner (and forgets it), or null. Called under the
     * file's lock, so no append is offered meanwhile. Interrupts do not end the wait.
     */
    synchronized Failure awaitIdle() {
        boolean interrupted = false;
        while (running) {
            interrupted |= waitUninterruptibly();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Failure taken = failure;
        failure = null;
        busy = false;
        return taken;
    }

    /** How many spare buffers the queue keeps now (for tests). */
    synchronized int spareCount() {
        return spareBuffers.size();
    }

    /** Whether every spare buffer is zeros (for tests: dropped appends are wiped too). */
    synchronized boolean sparesWiped() {
        for (byte[] b : spareBuffers) {
            for (byte x : b) {
                if (x != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Drops the spare buffers (wiped already); called once the file is closed and the queue idle. */
    synchronized void release() {
        spareBuffers.clear();
    }

    /** Waits on the monitor once; returns whether an interrupt came meanwhile. */
    private boolean waitUninterruptibly() {
        try {
            wait();
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }

    private static void awaitRunningAtExit() {
        awaitRunning(RUNNING, System.nanoTime() + EXIT_WAIT_NANOS);
    }

    /** The exit's wait ({@link ExitWaits}) over {@code running}. */
    static void awaitRunning(Set<AppendQueue> running, long deadline) {
        ExitWaits.await(running, AppendQueue::isRunning, deadline);
    }

    /** Whether a runner is appending (the file's append state is its own). */
    synchronized boolean isRunning() {
        return running;
    }
}
