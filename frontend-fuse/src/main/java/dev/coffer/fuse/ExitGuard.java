package dev.coffer.fuse;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A shutdown hook installed before anything is mounted or created, so that a signal (SIGINT, SIGTERM)
 * can never leave a mount behind: before, one arriving after the kernel's mount and before the
 * owner's own hook (coffer mount installs it once {@link FuseMount#mount} has returned) ended the
 * JVM with nobody unmounting: a stale mount, and the mount point folder Coffer created, stayed.
 * At exit it waits for the mount call to finish (it goes on while hooks run), then leaves the
 * unmount to the owner if it asks for one ({@link FuseMount#unmountAtExit}). Removed when the
 * session ends, or when the mount fails (the failure cleans up itself).
 *
 * <p>Not responsible for how a mount is undone ({@link FuseMount}).
 */
final class ExitGuard {
    /**
     * Longer than a mount can take at exit. The INIT wait ends at once then ({@link #exiting}), so
     * this bounds libfuse's mount (fusermount), which is fast unless the system hangs it; no shorter:
     * giving up while fusermount runs would let its mount appear after the JVM has gone, stale,
     * with nobody left to undo it.
     */
    private static final long MOUNT_WAIT_SECONDS = 60;

    private final CompletableFuture<FuseMount> made = new CompletableFuture<>();
    private final CompletableFuture<Void> exiting = new CompletableFuture<>();
    private final Thread hook = new Thread(this::atExit, "coffer-fuse-exit-guard");

    private ExitGuard() {}

    /** Installs the hook; IllegalStateException if the JVM is already shutting down (then mount nothing). */
    static ExitGuard install() {
        ExitGuard guard = new ExitGuard();
        Runtime.getRuntime().addShutdownHook(guard.hook);
        return guard;
    }

    /** The mount is made: at exit, it is undone unless its owner does so. */
    void mounted(FuseMount mount) {
        made.complete(mount);
    }

    /** The mount failed (and cleaned up after itself), or its session has ended: nothing to guard. */
    void done() {
        made.complete(null);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs and finds nothing to do
        }
    }

    /** Completes when the JVM starts exiting: a mount still waiting for the kernel's INIT then gives up. */
    CompletableFuture<Void> exiting() {
        return exiting;
    }

    private void atExit() {
        exiting.complete(null);
        FuseMount mount;
        try {
            mount = made.get(MOUNT_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (ExecutionException | TimeoutException e) {
            return; // still mounting after a minute: nothing this hook can do
        }
        if (mount != null) {
            mount.unmountAtExit();
        }
    }
}
