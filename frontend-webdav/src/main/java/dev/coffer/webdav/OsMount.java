package dev.coffer.webdav;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Mounts a running server with the operating system's own WebDAV client where Coffer can do so
 * unattended, and says how elsewhere. Linux: {@code gio mount} (GNOME's gvfs, {@link GioMount}) in
 * a desktop session with a D-Bus session bus, else (or when gio fails there) davfs2 when running as
 * root ({@link Davfs2Mount}, at a new folder in the temp folder). macOS and Windows: the command to
 * type ({@link #instructions}). {@link #close} unmounts before the server stops. A server started
 * with {@link WebDavServer#startWithCredential} has its credential handed to gio or davfs2 on their
 * standard input; macOS's and Windows' commands are for a server without one (Windows' WebClient
 * refuses Basic authentication over plain HTTP).
 *
 * <p>Not responsible for serving, or for the limits of the clients (docs/webdav.md lists them).
 */
public final class OsMount implements AutoCloseable {
    private final String where;
    private final Unmount unmount;

    /** The three ways to end a mount; each does nothing once one of them succeeded. */
    private interface Unmount {
        /** Waits for writers a while, then unmounts anyway ({@code coffer serve} stopping). */
        void close() throws IOException;

        /** Unmounts if not in use, else throws {@link OsMountBusyException} and stays mounted. */
        void closeIfIdle() throws IOException;

        /** Unmounts at once. */
        void closeForcibly() throws IOException;
    }

    private OsMount(String where, Unmount unmount) {
        this.where = where;
        this.unmount = unmount;
    }

    /** True on Linux, the one system where {@link #mount} can mount by itself. */
    public static boolean canMountHere() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    }

    /**
     * Mounts {@code server} (Linux only).
     *
     * @throws IOException naming what is missing when no client can be used, or the client's error
     */
    public static OsMount mount(WebDavServer server) throws IOException {
        Optional<Path> gio = GioMount.tool();
        String session = sessionBus();
        boolean davfs2 = Davfs2Mount.helper().isPresent() && "root".equals(System.getProperty("user.name"));
        if (gio.isPresent() && session != null && !session.isEmpty()) {
            try {
                GioMount m = GioMount.mount(gio.get(), session, server);
                return new OsMount(m.where(), new Unmount() {
                    @Override
                    public void close() throws IOException {
                        m.close();
                    }

                    @Override
                    public void closeIfIdle() throws IOException {
                        m.closeIfIdle();
                    }

                    @Override
                    public void closeForcibly() throws IOException {
                        m.closeForcibly();
                    }
                });
            } catch (IOException e) {
                if (!davfs2) {
                    throw new IOException("gio mount failed (is gvfs-backends installed?): " + e.getMessage(), e);
                }
                // a session without gvfs's WebDAV backend: davfs2 can still mount it
            }
        }
        if (davfs2) {
            return mountWithDavfs2(server);
        }
        throw new IOException("no WebDAV client to mount with: run in a desktop session with gvfs (gio), or as root with davfs2 "
                + "installed" + (server.requiresCredential() ? "" : "; or mount " + server.url() + " yourself"));
    }

    /**
     * The D-Bus session bus: the {@code DBUS_SESSION_BUS_ADDRESS} system property (as dbus-java, which
     * the app's keyring uses, reads it first), else the environment variable; null if neither.
     */
    private static String sessionBus() {
        String property = System.getProperty("DBUS_SESSION_BUS_ADDRESS");
        return property != null && !property.isEmpty() ? property : System.getenv("DBUS_SESSION_BUS_ADDRESS");
    }

    private static OsMount mountWithDavfs2(WebDavServer server) throws IOException {
        Path mnt = Files.createTempDirectory("coffer-webdav-");
        try {
            Davfs2Mount m = Davfs2Mount.mount(server, mnt);
            return new OsMount(mnt.toString(), new Unmount() {
                @Override
                public void close() throws IOException {
                    m.close();
                    Files.deleteIfExists(mnt);
                }

                @Override
                public void closeIfIdle() throws IOException {
                    close(); // umount refuses a busy davfs2 mount itself
                }

                @Override
                public void closeForcibly() throws IOException {
                    m.closeForcibly();
                    Files.deleteIfExists(mnt);
                }
            });
        } catch (IOException | RuntimeException | Error e) {
            try {
                Files.deleteIfExists(mnt);
            } catch (IOException | RuntimeException deleting) {
                e.addSuppressed(deleting); // e.g. a late mount there: the mount's own error is the one to report
            }
            throw e;
        }
    }

    /** Where the files appear: a folder, or the URI the file manager shows. */
    public String where() {
        return where;
    }

    /** How to mount {@code server} by hand on macOS and Windows. */
    public static String instructions(WebDavServer server) {
        return "macOS:   mkdir -p /Volumes/coffer && mount_webdav -S " + server.url() + " /Volumes/coffer"
                + "   (or Finder > Go > Connect to Server: " + server.url() + ")\n"
                + "Windows: net use * \\\\127.0.0.1@" + server.port() + "\\DavWWWRoot\\" + server.secretSegment()
                + "   (WebClient service; files over 50 MB need FileSizeLimitInBytes raised, see docs/webdav.md)";
    }

    /**
     * Unmounts, waiting a while for programs still writing through it and then unmounting anyway
     * (for a server that is stopping); the server must still be running (clients upload what they cached).
     */
    @Override
    public void close() throws IOException {
        unmount.close();
    }

    /**
     * Unmounts if nothing uses the mount (an app's lock).
     *
     * @throws OsMountBusyException if programs still write through it: it stays mounted, and the
     *                              server must keep running
     */
    public void closeIfIdle() throws IOException {
        unmount.closeIfIdle();
    }

    /** Unmounts at once, even while programs write through it (the user chose to lock anyway). */
    public void closeForcibly() throws IOException {
        unmount.closeForcibly();
    }
}
