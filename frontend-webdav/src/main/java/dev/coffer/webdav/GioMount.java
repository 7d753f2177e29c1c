package dev.coffer.webdav;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * file's writes are never uploaded. So {@link #close} waits, for up to {@value #BUSY_WAIT_SECONDS}
 * s, until no process writes through the mount ({@link OpenWriters}) and gvfs is not busy, then
 * unmounts by force and says what was dropped. The commands run on the given session bus, with
 * {@code LC_ALL=C} (their messages are read here), and with no
 * input, so an authentication prompt fails instead of waiting (the server asks for none).
 *
 * <p>Not responsible for choosing gio over other clients ({@link OsMount}) or for the session.
 */
final class GioMount implements AutoCloseable {
    static final long BUSY_WAIT_SECONDS = 30;
    private static final String LOCAL_PATH = "local path: ";

    private final Path gio;
    private final Map<String, String> environment;
    private final String uri;
    private final String where;
    private boolean closed;

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
        String uri = uri(server);
        GioMount mount = new GioMount(gio, sessionBus, uri, uri);
        mount.run(List.of(gio.toString(), "mount", uri));
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
        long deadline = System.nanoTime() + BUSY_WAIT_SECONDS * 1_000_000_000L;
        Set<Long> writers;
        while (true) {
            writers = where.startsWith("/") ? new OpenWriters(Path.of("/proc")).under(Path.of(where)) : Set.of();
            if (writers.isEmpty()) {
                try {
                    run(unmount(false));
                    closed = true;
                    return;
                } catch (IOException e) {
                    if (!isBusy(e)) {
                        throw e;
                    }
                }
            }
            if (System.nanoTime() > deadline) {
                break;
            }
            pause();
        }
        run(unmount(true));
        closed = true;
        throw new IOException(writers.isEmpty()
                ? "gvfs was still busy uploading after " + BUSY_WAIT_SECONDS + " s; unmounted by force: what it had not uploaded is not in the vault"
                : "files were still open for writing through the mount after " + BUSY_WAIT_SECONDS + " s (process " + writers
                        + "); unmounted by force: what was written to them is not in the vault");
    }

    private List<String> unmount(boolean force) {
        List<String> cmd = new ArrayList<>(List.of(gio.toString(), "mount", "-u"));
        if (force) {
            cmd.add("-f");
        }
        cmd.add(uri);
        return cmd;
    }

    /** Runs a gio command; its error names the server's port but not its secret segment. */
    private String run(List<String> command) throws IOException {
        try {
            return Commands.run(command, environment);
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
