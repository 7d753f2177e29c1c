package dev.coffer.webdav;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;

/**
 * A davfs2 mount of a served tree (Linux, as root): {@code mount -t davfs} with a private
 * configuration that never asks for credentials ({@code ask_auth 0}; the server asks for none),
 * takes WebDAV locks ({@code use_locks 1}), uploads on close ({@code delay_upload 0}) and uses
 * 64 KiB buffers ({@code buf_size 64}: with smaller ones directory listings fail with EINVAL on
 * Linux 6.16 and later). {@link #close} unmounts; {@code umount.davfs} waits until davfs2 has
 * uploaded what is still in its cache.
 *
 * <p>Not responsible for choosing davfs2 over other clients ({@link OsMount}).
 */
public final class Davfs2Mount implements AutoCloseable {
    static final String CONFIG = "ask_auth 0\nuse_locks 1\ndelay_upload 0\nbuf_size 64\n";

    private final Path mountPoint;
    private boolean closed;

    private Davfs2Mount(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /** The mount helper, if davfs2 is installed. */
    public static Optional<Path> helper() {
        return Commands.find("/usr/sbin/mount.davfs", "/sbin/mount.davfs");
    }

    /** Mounts {@code url} at {@code mountPoint} (an existing empty folder). */
    public static Davfs2Mount mount(String url, Path mountPoint) throws IOException {
        if (helper().isEmpty()) {
            throw new IOException("davfs2 is not installed (Debian: apt-get install davfs2)");
        }
        Path conf = Files.createTempFile("coffer-davfs2", ".conf", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(conf, CONFIG);
            Commands.run(List.of("mount", "-t", "davfs", "-o", "conf=" + conf, url, mountPoint.toString()));
        } finally {
            Files.deleteIfExists(conf);
        }
        return new Davfs2Mount(mountPoint);
    }

    public Path mountPoint() {
        return mountPoint;
    }

    /** Unmounts (waiting for davfs2's pending uploads); later calls do nothing. */
    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            Commands.run(List.of("umount", mountPoint.toString()));
            closed = true;
        }
    }
}
