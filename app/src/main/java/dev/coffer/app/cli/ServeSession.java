package dev.coffer.app.cli;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.webdav.OsMount;
import dev.coffer.webdav.WebDavServer;
import java.io.IOException;
import java.io.PrintStream;

/**
 * The end of one {@code coffer serve}: unmount the OS client's mount (if {@code --mount} made one;
 * the client still uploads what it cached), stop the server (running requests may finish), then
 * lock the vault (closing it flushes and closes every file and destroys the keys), exactly once.
 *
 * <p>Not responsible for starting anything or for choosing exit codes.
 */
final class ServeSession implements Foreground.Session {
    private final WebDavServer server;
    private final OsMount mount;
    private final CofferFileSystem fs;
    private final PrintStream err;
    private boolean locked;

    /** {@code mount} may be null (not mounted). */
    ServeSession(WebDavServer server, OsMount mount, CofferFileSystem fs, PrintStream err) {
        this.server = server;
        this.mount = mount;
        this.fs = fs;
        this.err = err;
    }

    @Override
    public void awaitEnd() throws InterruptedException {
        server.awaitStop();
    }

    @Override
    public void stopOnSignal() {
        if (mount != null) {
            try {
                mount.close();
            } catch (IOException e) {
                err.println("coffer: unmounting " + mount.where() + " failed: " + ExitCodes.message(e));
            }
        }
        try {
            server.close();
        } catch (IOException e) {
            err.println("coffer: stopping the server failed: " + ExitCodes.message(e));
        }
        lock();
    }

    @Override
    public synchronized void lock() {
        if (locked) {
            return;
        }
        locked = true;
        try {
            fs.close();
            err.println("coffer: stopped serving; the vault is locked");
        } catch (IOException | RuntimeException e) {
            err.println("coffer: locking the vault failed: " + ExitCodes.message(e));
        }
        err.flush();
    }
}
