package dev.coffer.app.cli;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.fuse.FuseMount;
import dev.coffer.fuse.MountBusyException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * The end of one {@code coffer mount}: unmount, then lock the vault (closing it flushes and closes
 * every file and destroys the keys), exactly once, whether a signal ends it (the shutdown hook) or
 * somebody unmounted it (the main thread). While programs still use the mount, a stop without
 * {@code --force} says so once and waits, trying again every second.
 *
 * <p>Not responsible for mounting or for choosing exit codes.
 */
final class MountSession implements Foreground.Session {
    private static final long RETRY_MILLIS = 1_000;

    private final FuseMount mount;
    private final CofferFileSystem fs;
    private final PrintStream err;
    private final boolean force;
    private boolean locked;

    MountSession(FuseMount mount, CofferFileSystem fs, PrintStream err, boolean force) {
        this.mount = mount;
        this.fs = fs;
        this.err = err;
        this.force = force;
    }

    /** Blocks until the mount has ended (unmounted by anybody). */
    @Override
    public void awaitEnd() throws IOException {
        while (!mount.awaitEnd(1, TimeUnit.DAYS)) {
            // keep serving
        }
    }

    /** SIGINT or SIGTERM: unmount (waiting while busy unless forced), then lock. Runs in the shutdown hook. */
    @Override
    public void stopOnSignal() {
        boolean told = false;
        while (true) {
            try {
                mount.unmount(force);
                break;
            } catch (MountBusyException e) {
                if (!told) {
                    err.println("coffer: " + mount.mountPoint() + " is busy: a program has a file open in it, or a shell's "
                            + "working folder is inside it. Waiting until they are done (checked every second); "
                            + "to detach it now, run: fusermount -u -z " + mount.mountPoint()
                            + " (a mount started with coffer mount --force does that itself).");
                    told = true;
                }
                if (!pause()) {
                    break;
                }
            } catch (IOException | RuntimeException e) {
                err.println("coffer: unmounting failed: " + ExitCodes.message(e));
                unmountFailed = true;
                break;
            }
        }
        lock();
    }

    private boolean unmountFailed;

    /** Closes the vault once the mount is gone (or forced away); later calls do nothing. */
    @Override
    public synchronized void lock() {
        if (locked) {
            return;
        }
        locked = true;
        try {
            fs.close();
            err.println(unmountFailed
                    ? "coffer: the vault is locked, but " + mount.mountPoint() + " may still be mounted; run: fusermount -u -z " + mount.mountPoint()
                    : "coffer: unmounted " + mount.mountPoint() + "; the vault is locked");
        } catch (IOException | RuntimeException e) {
            err.println("coffer: locking the vault failed: " + ExitCodes.message(e));
        }
        err.flush();
    }

    private static boolean pause() {
        try {
            Thread.sleep(RETRY_MILLIS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
