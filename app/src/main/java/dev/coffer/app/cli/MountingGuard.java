package dev.coffer.app.cli;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.webdav.OsMount;
import dev.coffer.webdav.WebDavServer;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The shutdown hook of {@code serve --mount} from before the OS mount starts (gio or davfs2 may take
 * minutes): a SIGINT/SIGTERM while mounting kills the mount tools this process started (so none of
 * them mounts the server later, with its credential in memory), waits a while for the mounting
 * thread to undo a late mount, unmounts a mount that had just finished, stops the server (wiping the
 * credential) and locks the vault. Once mounted, {@link #handOver} makes the same hook end the
 * serving session instead ({@link Foreground#hold(Foreground.Session, Thread)}), so no moment is left
 * without one.
 *
 * <p>Not responsible for mounting, or for ending a serving session ({@link ServeSession} does, from
 * the same hook).
 */
final class MountingGuard {
    /** How long a signal waits for the mounting thread to give up and clean up after its killed tools. */
    private static final long MOUNTING_END_WAIT_SECONDS = 20;

    private final WebDavServer server;
    private final CofferFileSystem fs;
    private final PrintStream err;
    private final Thread hook = new Thread(this::onSignal, "coffer-stop-serving");
    private final CountDownLatch mountingEnded = new CountDownLatch(1);
    private volatile OsMount mounted;
    private Foreground.Session session;
    private boolean signalled;

    /** Installs the hook. */
    MountingGuard(WebDavServer server, CofferFileSystem fs, PrintStream err) {
        this.server = server;
        this.fs = fs;
        this.err = err;
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private void onSignal() {
        Foreground.Session handedOver;
        synchronized (this) {
            signalled = true;
            handedOver = session;
        }
        if (handedOver != null) {
            handedOver.stopOnSignal();
            return;
        }
        // gio, mount, mount.davfs: the only processes serve starts
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
        try {
            // the mounting thread now fails soon and undoes a late mount (gio mount -u -f, umount -l);
            // if the mount had finished just before the signal, it is unmounted here
            if (mountingEnded.await(MOUNTING_END_WAIT_SECONDS, TimeUnit.SECONDS) && mounted != null) {
                mounted.closeForcibly();
            }
        } catch (IOException e) {
            err.println("coffer: unmounting " + mounted.where() + " failed: " + ExitCodes.message(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            server.close();
        } catch (IOException e) {
            err.println("coffer: stopping the server failed: " + ExitCodes.message(e));
        }
        try {
            fs.close();
            err.println("coffer: stopped while mounting; the vault is locked");
        } catch (IOException | RuntimeException e) {
            err.println("coffer: locking the vault failed: " + ExitCodes.message(e));
        }
        err.flush();
    }

    /** Called when the mount attempt ended: with its mount, or null if it failed. */
    void mountingEnded(OsMount mount) {
        mounted = mount;
        mountingEnded.countDown();
    }

    /** True once a signal came while mounting (the process is ending: say nothing more). */
    synchronized boolean signalled() {
        return signalled;
    }

    /**
     * From now on the hook ends {@code serving}; returns the hook for {@link Foreground#hold}. If a
     * signal came while mounting, never returns (the hook stops everything, then the JVM halts).
     */
    Thread handOver(Foreground.Session serving) throws InterruptedException {
        synchronized (this) {
            if (!signalled) {
                session = serving;
                return hook;
            }
        }
        return awaitHalt();
    }

    /** After a signal: waits for the hook, and then for the JVM to halt (never returns). */
    Thread awaitHalt() throws InterruptedException {
        hook.join();
        Thread.currentThread().join(); // the JVM halts once its hooks are done
        throw new IllegalStateException("unreachable: the JVM is halting");
    }

    /** Removes the hook (serve fails before serving: its own error handling has locked the vault). */
    void cancel() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook runs, and finds the server stopped and the vault locked
        }
    }
}
