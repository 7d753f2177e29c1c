package dev.coffer.core.content;

import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The background threads of open files (writers running behind, readers running ahead): a pool that
 * hands a task to an idle thread or starts one, and ends a thread after a minute idle. Daemon
 * threads, so they never keep the JVM alive; never interrupted, because an interrupt during I/O
 * would close a file's shared ciphertext channel. Not responsible for what the tasks do.
 */
final class DaemonThreads {
    private DaemonThreads() {}

    /** A pool whose threads are named {@code namePrefix + n}. */
    static Executor pool(String namePrefix) {
        AtomicInteger count = new AtomicInteger();
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
            Thread t = new Thread(task, namePrefix + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }
}
