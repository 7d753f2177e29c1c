package dev.coffer.webdav;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A thread running one mount call for tests that interrupt it: keeps what the call threw and whether
 * the thread's interrupt flag was set when the call returned.
 */
final class MountingThread {
    /** The mount call. */
    interface Call {
        void run() throws Exception;
    }

    private final Thread thread;
    private final AtomicReference<Throwable> thrown = new AtomicReference<>();
    private final AtomicBoolean interruptedAfterwards = new AtomicBoolean();

    private MountingThread(Call call) {
        thread = new Thread(() -> {
            try {
                call.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
            interruptedAfterwards.set(Thread.currentThread().isInterrupted());
        }, "mounting");
    }

    /** Starts {@code call} on a new thread. */
    static MountingThread start(Call call) {
        MountingThread m = new MountingThread(call);
        m.thread.start();
        return m;
    }

    /** Interrupts the call and waits up to {@code millis} for it to end; true if it ended. */
    boolean interruptAndJoin(long millis) throws InterruptedException {
        thread.interrupt();
        thread.join(millis);
        return !thread.isAlive();
    }

    Throwable thrown() {
        return thrown.get();
    }

    boolean interruptedAfterwards() {
        return interruptedAfterwards.get();
    }
}
