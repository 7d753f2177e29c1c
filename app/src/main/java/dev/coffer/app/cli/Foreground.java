package dev.coffer.app.cli;

import java.io.IOException;

/**
 * Keeps a command that serves an unlocked vault ({@code mount}, {@code serve}) in the foreground:
 * a shutdown hook ends the session on SIGINT/SIGTERM, and if the session ends by itself (unmounted
 * from elsewhere) the main thread locks the vault and removes the hook again.
 *
 * <p>Not responsible for what ending a session means ({@link Session} implementations say).
 */
final class Foreground {
    /** One served vault. */
    interface Session {
        /** Runs in the shutdown hook: stop serving, then lock the vault. */
        void stopOnSignal();

        /** Blocks while the session lasts. */
        void awaitEnd() throws IOException, InterruptedException;

        /** Locks the vault once; later calls do nothing. */
        void lock();
    }

    private Foreground() {}

    /** Blocks until {@code session} ends; after a signal the JVM exits from inside the hook instead. */
    static void hold(Session session, String hookName) throws IOException, InterruptedException {
        Thread hook = new Thread(session::stopOnSignal, hookName);
        Runtime.getRuntime().addShutdownHook(hook);
        hold(session, hook);
    }

    /** As {@link #hold(Session, String)}, with {@code hook} already installed (it ends {@code session} on a signal). */
    static void hold(Session session, Thread hook) throws IOException, InterruptedException {
        session.awaitEnd();
        session.lock(); // ended by itself: lock here (after a signal, the hook does it and this never runs)
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook runs (and finds the vault locked)
        }
    }
}
