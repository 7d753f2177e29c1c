package dev.coffer.webdav;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A davfs2 mount of a served tree (Linux, as root): {@code mount -t davfs} with a private
 * configuration that never asks for credentials ({@code ask_auth 0}) when the server requires none;
 * for a server with a {@link DavCredential}, it asks ({@code ask_auth 1}) and mount.davfs reads
 * user and password on its standard input, so the password is never on disk or on a command line
 * (davfs2 keeps it in its own memory). The configuration takes WebDAV locks ({@code use_locks 1}), uploads on close ({@code delay_upload 0}) and uses
 * 64 KiB buffers ({@code buf_size 64}: with smaller ones directory listings fail with EINVAL on
 * Linux 6.16 and later). {@link #close} unmounts ({@code umount.davfs} waits until davfs2 has
 * uploaded what is still in its cache), then deletes davfs2's cache folder of this mount in
 * {@value #CACHE_ROOT}: davfs2 keeps whole files there, in cleartext, after unmounting. A failed
 * mount's error names the URL with its secret segment replaced by {@code SECRET}.
 *
 * <p>Not responsible for choosing davfs2 over other clients ({@link OsMount}).
 */
public final class Davfs2Mount implements AutoCloseable {
    static final String CONFIG = "ask_auth 0\nuse_locks 1\ndelay_upload 0\nbuf_size 64\n";
    /** {@link #CONFIG}, but asking for the credential (on standard input). */
    static final String CONFIG_ASKING = CONFIG.replace("ask_auth 0", "ask_auth 1");
    /** davfs2's cache for mounts by root (its system-wide {@code cache_dir}). */
    static final String CACHE_ROOT = "/var/cache/davfs2";
    /** util-linux's mount, found on PATH. */
    private static final String MOUNT = "mount";

    private final Path mountPoint;
    private final String cacheKey;
    private boolean closed;

    private Davfs2Mount(Path mountPoint, String cacheKey) {
        this.mountPoint = mountPoint;
        this.cacheKey = cacheKey;
    }

    /** The mount helper, if davfs2 is installed. */
    public static Optional<Path> helper() {
        return Commands.find("/usr/sbin/mount.davfs", "/sbin/mount.davfs");
    }

    /** Mounts {@code url} at {@code mountPoint} (an existing empty folder). */
    public static Davfs2Mount mount(String url, Path mountPoint) throws IOException {
        return mount(MOUNT, url, mountPoint, null);
    }

    /** Mounts {@code server}, handing davfs2 its credential if it requires one. */
    static Davfs2Mount mount(WebDavServer server, Path mountPoint) throws IOException {
        return mount(MOUNT, server, mountPoint);
    }

    /** As {@link #mount(WebDavServer, Path)} with {@code mountTool} as util-linux's {@code mount} (tests: a stand-in). */
    static Davfs2Mount mount(String mountTool, WebDavServer server, Path mountPoint) throws IOException {
        DavCredential credential = server.credential();
        byte[] input = credential == null ? null : credential.clientInput();
        try {
            return mount(mountTool, server.url(), mountPoint, input);
        } finally {
            if (input != null) {
                Arrays.fill(input, (byte) 0);
            }
        }
    }

    private static Davfs2Mount mount(String mountTool, String url, Path mountPoint, byte[] credentialInput) throws IOException {
        if (helper().isEmpty()) {
            throw new IOException("davfs2 is not installed (Debian: apt-get install davfs2)");
        }
        Path conf = Files.createTempFile("coffer-davfs2", ".conf", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(conf, credentialInput == null ? CONFIG : CONFIG_ASKING);
            Commands.run(List.of(mountTool, "-t", "davfs", "-o", "conf=" + conf, url, mountPoint.toString()), Map.of(),
                    credentialInput, Commands.TIMEOUT_SECONDS);
        } catch (IOException e) {
            detachLateMount(mountPoint);
            // mount.davfs prints the server's URL (in its prompt, its errors): its secret segment is a key
            throw new IOException(withoutSecret(String.valueOf(e.getMessage()), url));
        } finally {
            Files.deleteIfExists(conf);
        }
        return new Davfs2Mount(mountPoint, cacheKey(url));
    }

    /**
     * After a failed or timed-out {@code mount}: if mount.davfs mounted it anyway, detach it
     * ({@code umount -l}), so that no mount outlives the failed attempt.
     */
    private static void detachLateMount(Path mountPoint) {
        boolean interrupted = Thread.interrupted(); // an interrupted mount's clean-up must still run
        try {
            if (Files.readString(Path.of("/proc/mounts")).contains(" " + mountPoint + " ")) {
                Commands.run(List.of("umount", "-l", mountPoint.toString()));
            }
        } catch (IOException e) {
            // not mounted, or already gone
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@code message} with the path segment of {@code url} (the secret) replaced by {@code SECRET}. */
    static String withoutSecret(String message, String url) {
        String path = java.net.URI.create(url).getRawPath();
        String secret = path == null ? "" : path.replace("/", "");
        return secret.isEmpty() ? message : message.replace(secret, "SECRET");
    }

    /** davfs2 names a mount's cache folder after host, URL path (without slashes), mount point and user. */
    static String cacheKey(String url) {
        String path = java.net.URI.create(url).getRawPath();
        return java.net.URI.create(url).getHost() + "-" + (path == null ? "" : path.replace("/", "")) + "+";
    }

    /** The cache folders davfs2 keeps for this mount (empty once {@link #close} has run). */
    public List<Path> cacheFolders() throws IOException {
        Path root = Path.of(CACHE_ROOT);
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(root)) {
            return s.filter(p -> p.getFileName().toString().startsWith(cacheKey)).toList();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    public Path mountPoint() {
        return mountPoint;
    }

    /** Unmounts (waiting for davfs2's pending uploads); later calls do nothing. */
    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            try {
                Commands.run(List.of("umount", mountPoint.toString()), Map.of("LC_ALL", "C")); // its message is read
            } catch (IOException e) {
                if (String.valueOf(e.getMessage()).contains("busy")) {
                    throw new OsMountBusyException("files are open through " + mountPoint);
                }
                throw e;
            }
            closed = true;
            for (Path cache : cacheFolders()) {
                deleteTree(cache);
            }
        }
    }

    /** Detaches the mount at once, even while programs use it (what they have not closed is dropped). */
    synchronized void closeForcibly() throws IOException {
        if (!closed) {
            Commands.run(List.of("umount", "-l", mountPoint.toString()));
            closed = true;
        }
    }
}
