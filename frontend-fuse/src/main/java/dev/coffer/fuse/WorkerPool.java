package dev.coffer.fuse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The count of a session's worker threads and of those waiting for a request: when the last idle
 * worker takes one, another is started to wait for the next, up to a maximum. A worker that cannot
 * be started (a thread limit: {@code ulimit -u}, a cgroup's {@code pids.max}, systemd's
 * {@code TasksMax}) is not counted, and the pool goes on with the workers it has: the counts must
 * stay exact, since the session's end waits for the last worker to leave. Thread-safe.
 */
final class WorkerPool {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerPool.class);

    /** Starts a thread running {@code work}; throws if it cannot (OutOfMemoryError: unable to create native thread). */
    @FunctionalInterface
    interface Starter {
        void start(Runnable work, String name);
    }

    static final Starter DAEMON_THREADS = (work, name) -> {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        t.start();
    };

    private final int max;
    private final Starter starter;
    private final Runnable work;
    private final String namePrefix;
    private int workers;
    private int idle;
    private int started;

    WorkerPool(int max, Starter starter, Runnable work, String namePrefix) {
        this.max = max;
        this.starter = starter;
        this.work = work;
        this.namePrefix = namePrefix;
    }

    /** Starts the first worker; false if it could not be started. */
    synchronized boolean startFirst() {
        return tryStart();
    }

    /** A worker took a request: if none waits for the next any more, one more is started (if it can be). */
    synchronized void busy() {
        idle--;
        if (idle == 0 && workers < max) {
            tryStart();
        }
    }

    /** A worker answered its request and waits for the next. */
    synchronized void idleAgain() {
        idle++;
    }

    /** A worker left for good (the session ended); true if it was the last one. */
    synchronized boolean leave() {
        workers--;
        idle--;
        return workers == 0;
    }

    /** Workers started so far. */
    synchronized int started() {
        return started;
    }

    /** Counts a worker only once its thread runs; under this object's lock, so it cannot take a request first. */
    private boolean tryStart() {
        try {
            starter.start(work, namePrefix + (started + 1));
        } catch (RuntimeException | Error e) { // OutOfMemoryError: unable to create native thread
            LOG.warn("could not start another FUSE worker ({}); going on with {}", e.getClass().getSimpleName(), workers);
            return false;
        }
        started++;
        workers++;
        idle++;
        return true;
    }
}
