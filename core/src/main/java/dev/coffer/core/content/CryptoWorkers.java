package dev.coffer.core.content;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads that encrypt part of a large write while the writing thread encrypts the rest, so that a
 * 128 KiB write uses two cores for its crypto (HMAC-SHA256 and XTS), which is most of its cost. One
 * pool for the whole process, of daemon threads that hold no secret between tasks; absent on a
 * single-core machine, where splitting would only add hand-over costs.
 *
 * <p>Not responsible for what a task does or for waiting on it ({@link OpenFile} does both).
 */
final class CryptoWorkers {
    private static final int THREADS = Math.min(3, Runtime.getRuntime().availableProcessors() - 1);
    private static final ExecutorService POOL = THREADS < 1 ? null : Executors.newFixedThreadPool(THREADS, task -> {
        Thread t = new Thread(task, "coffer-crypto-" + Counter.NEXT.getAndIncrement());
        t.setDaemon(true);
        return t;
    });

    private CryptoWorkers() {
    }

    /** True if there is a second core to hand work to. */
    static boolean available() {
        return POOL != null;
    }

    static <T> Future<T> submit(Callable<T> task) {
        return POOL.submit(task);
    }

    private static final class Counter {
        static final AtomicInteger NEXT = new AtomicInteger();
    }
}
