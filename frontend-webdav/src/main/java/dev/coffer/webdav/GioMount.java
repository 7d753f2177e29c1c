package dev.coffer.webdav;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A GNOME gvfs mount of a served tree through {@code gio} (Linux, a desktop session with a D-Bus
 * session bus): {@code gio mount dav://127.0.0.1:PORT/SECRET/}, where the files appear (the
 * gvfsd-fuse folder that {@code gio info} reports as the mount's "local path", or the {@code dav://}
 * URI when gvfs-fuse is missing), and {@link #close}, which unmounts with {@code gio mount -u}.
 *
 * <p>gvfsd-fuse uploads a written file when the kernel releases it, just after {@code close()}
 * returned to the writer; gvfs refuses to unmount while such an upload runs ("File system is busy"),
 * but unmounts without complaint while a program still has a file open for writing, and that
 * file's writes are never uploaded. So {@link #close} waits, for up to {@value #DEFAULT_BUSY_WAIT_SECONDS}
 * s, until no process writes through the mount ({@link OpenFilesUnder}) and gvfs is not busy, then
 * unmounts by force and says what was dropped ({@code coffer serve} stopping). {@link #closeIfIdle}
 * (an app's lock) waits only a few seconds and then leaves the mount as it is; {@link #closeForcibly}
 * (the user chose to lock anyway) does not wait. The commands run on the given session bus, with
 * {@code LC_ALL=C} (their messages are read here). {@code gio mount} of a server that requires a
 * {@link DavCredential} gets user and password on its standard input, where its password prompt
 * reads them (gio's mount operation leaves gvfs's default, never to save a password); the other commands, and any second prompt (a wrong
 * password), get no input and fail instead of waiting.
 *
 * <p>A {@code gio mount} that fails or outlives its time limit is killed, and whatever gvfs may
 * have mounted for it is unmounted by force ({@code gio mount -u -f}): no mount outlives a failed
 * attempt that Coffer could see.
 *
 * <p>Not responsible for choosing gio over other clients ({@link OsMount}) or for the session.
 */
final class GioMount implements AutoCloseable {
    /** How long a stop waits for writers and gvfs's uploads before it unmounts by force. */
    static final long DEFAULT_BUSY_WAIT_SECONDS = 30;
    /**
     * Set only by GioServeIT (in the {@code coffer} it starts), whose program that keeps a file open would
     * otherwise wait out the full {@value #DEFAULT_BUSY_WAIT_SECONDS} s; unset, the default holds.
     */
    static final String BUSY_WAIT_PROPERTY = "coffer.gio.busyWaitSeconds";
    static final long BUSY_WAIT_SECONDS = Long.getLong(BUSY_WAIT_PROPERTY, DEFAULT_BUSY_WAIT_SECONDS);
    /** How long a lock waits for just-closed files to be uploaded before it calls the mount busy. */
    static final long IDLE_WAIT_SECONDS = 5;
    private static final String LOCAL_PATH = "local path: ";
    /** How long the check that a refused mount is still there may take (gvfs answers at once). */
    private static final long STILL_MOUNTED_SECONDS = 10;

    private final Path gio;
    private final Map<String, String> environment;
    private final String uri;
    private final String where;
    private boolean closed;
    private String lastRefusal; // gio's last refusal to unmount, for the message when it stays refused

    private GioMount(Path gio, String sessionBus, String uri, String where) {
        this.gio = gio;
        this.environment = Map.of("LC_ALL", "C", "DBUS_SESSION_BUS_ADDRESS", sessionBus);
        this.uri = uri;
        this.where = where;
    }

    /** The gio tool, if GLib's tools are installed. */
    static Optional<Path> tool() {
        return Commands.find("/usr/bin/gio", "/bin/gio");
    }

    /** gvfs's URI for {@code server}: the {@code dav} scheme and the secret segment as the path. */
    static String uri(WebDavServer server) {
        return "dav://127.0.0.1:" + server.port() + "/" + server.secretSegment() + "/";
    }

    /** Mounts {@code server} with the gvfs of the session on {@code sessionBus} (a D-Bus address). */
    static GioMount mount(Path gio, String sessionBus, WebDavServer server) throws IOException {
        return mount(gio, sessionBus, server, Commands.TIMEOUT_SECONDS);
    }

    /** As {@link #mount(Path, String, WebDavServer)}, giving {@code gio mount} {@code timeoutSeconds}. */
    static GioMount mount(Path gio, String sessionBus, WebDavServer server, long timeoutSeconds) throws IOException {
        String uri = uri(server);
        GioMount mount = new GioMount(gio, sessionBus, uri, uri);
        DavCredential credential = server.credential();
        byte[] input = credential == null ? null : credential.clientInput();
        try {
            mount.run(List.of(gio.toString(), "mount", uri), input, timeoutSeconds);
        } catch (IOException e) {
            mount.unmountLate();
            throw e;
        } finally {
            if (input != null) {
                Arrays.fill(input, (byte) 0);
            }
        }
        String info;
        try {
            info = mount.run(List.of(gio.toString(), "info", "-a", "standard::name", uri));
        } catch (IOException e) {
            mount.close();
            throw e;
        }
        return new GioMount(gio, sessionBus, uri, localPath(info).orElse(uri));
    }

    /** The "local path" that {@code gio info} reports (present when gvfsd-fuse runs). */
    static Optional<String> localPath(String gioInfo) {
        return gioInfo.lines().filter(l -> l.startsWith(LOCAL_PATH)).map(l -> l.substring(LOCAL_PATH.length())).findFirst();
    }

    /** The gvfsd-fuse folder of the mount, or its {@code dav://} URI. */
    String where() {
        return where;
    }

    /**
     * Unmounts, first waiting while programs still write through the mount (gvfs would drop their
     * writes) or gvfs is busy uploading, then by force; later calls do nothing.
     *
     * @throws IOException if gio failed, or if it had to force (saying whose writes were dropped)
     */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        Set<Long> writers = unmountWhenIdle(BUSY_WAIT_SECONDS);
        if (closed) {
            return;
        }
        run(unmount(true));
        closed = true;
        throw new IOException((writers.isEmpty()
                ? "gvfs was still busy uploading after " + BUSY_WAIT_SECONDS + " s; unmounted by force: what it had not uploaded is not in the vault"
                : "files were still open for writing through the mount after " + BUSY_WAIT_SECONDS + " s (process " + writers
                        + "); unmounted by force: what was written to them is not in the vault") + refusal());
    }

    /**
     * Unmounts if nothing writes through the mount and gvfs has finished uploading within
     * {@value #IDLE_WAIT_SECONDS} s; else leaves it mounted.
     *
     * @throws OsMountBusyException if it is still in use (naming the writing processes)
     */
    synchronized void closeIfIdle() throws IOException {
        if (closed) {
            return;
        }
        Set<Long> writers = unmountWhenIdle(IDLE_WAIT_SECONDS);
        if (!closed) {
            throw new OsMountBusyException((writers.isEmpty() ? "gvfs is still uploading files written through " + where
                    : "files are open for writing through " + where + " (process " + writers + ")") + refusal());
        }
    }

    /** Unmounts at once, even while programs write through the mount (their writes are dropped). */
    synchronized void closeForcibly() throws IOException {
        if (!closed) {
            run(unmount(true));
            closed = true;
        }
    }

    /**
     * Tries to unmount while no process writes through the mount, for up to {@code seconds}; sets
     * {@link #closed} when it did. Returns the writers seen last (empty if gvfs was only busy).
     */
    private Set<Long> unmountWhenIdle(long seconds) throws IOException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (true) {
            Set<Long> writers = where.startsWith("/") ? new OpenFilesUnder(Path.of("/proc")).writers(Path.of(where)) : Set.of();
            if (writers.isEmpty()) {
                try {
                    run(unmount(false));
                    closed = true;
                    return writers;
                } catch (IOException e) {
                    if (!isBusy(e) && !stillMounted()) {
                        throw e;
                    }
                    lastRefusal = e.getMessage();
                    // Busy: gvfsd sends its refusal in the desktop session's language ("Dateisystem ist
                    // belegt"), which LC_ALL on gio does not change, so any refusal of a mount that is
                    // still there counts as busy: waiting is what keeps an upload that is under way.
                }
            }
            if (System.nanoTime() > deadline) {
                return writers;
            }
            pause();
        }
    }

    /** What gio said when it last refused to unmount, to quote in a message ("" if it never refused). */
    private String refusal() {
        return lastRefusal == null ? "" : " (gio: " + lastRefusal.strip() + ")";
    }

    /** True while gvfs still has the mount (its {@code gio info} succeeds). */
    private boolean stillMounted() {
        try {
            run(List.of(gio.toString(), "info", "-a", "standard::name", uri), null, STILL_MOUNTED_SECONDS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private List<String> unmount(boolean force) {
        List<String> cmd = new ArrayList<>(List.of(gio.toString(), "mount", "-u"));
        if (force) {
            cmd.add("-f");
        }
        cmd.add(uri);
        return cmd;
    }

    /**
     * After a failed or timed-out {@code gio mount}: gvfs may have mounted it (or finish mounting it)
     * although gio gave up; unmount by force whatever is there. A failure here (nothing mounted) is
     * the expected case.
     */
    private void unmountLate() {
        boolean interrupted = Thread.interrupted(); // else an interrupted mount's unmount would end at once, undone
        try {
            run(unmount(true));
        } catch (IOException e) {
            // nothing was mounted
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Runs a gio command; its error names the server's port but not its secret segment. */
    private String run(List<String> command) throws IOException {
        return run(command, null, Commands.TIMEOUT_SECONDS);
    }

    private String run(List<String> command, byte[] input, long timeoutSeconds) throws IOException {
        try {
            return Commands.run(command, environment, input, timeoutSeconds);
        } catch (IOException e) {
            String secret = URI.create(uri).getPath().replace("/", "");
            throw new IOException(String.valueOf(e.getMessage()).replace(secret, "SECRET"));
        }
    }

    private static boolean isBusy(IOException e) {
        return e.getMessage() != null && e.getMessage().contains("busy");
    }

    private static void pause() throws IOException {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for gvfs to finish uploading", e);
        }
    }
}
