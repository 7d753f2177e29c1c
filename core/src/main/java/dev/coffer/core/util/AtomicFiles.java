package dev.coffer.core.util;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Writes a small metadata file so that a crash leaves either the old file, the new file, or an
 * orphan temp file, never a half-written one (spec 2): temp file {@code .coffer-tmp-*} in the same
 * folder, fsync, atomic rename over the target, fsync of the folder.
 */
public final class AtomicFiles {
    /** Prefix of temporary files; readers ignore such names everywhere in a vault. */
    public static final String TEMP_PREFIX = ".coffer-tmp-";
    private static final SecureRandom RANDOM = new SecureRandom();

    private AtomicFiles() {}

    /**
     * Replaces (or creates) {@code target} with {@code content}, atomically and durably.
     *
     * @throws NotDurableException if the target was replaced but the folder's fsync failed
     */
    public static void write(Path target, byte[] content) throws IOException {
        write(target, content, true);
    }

    /**
     * Creates {@code target} with {@code content}, atomically and durably, unless something is there:
     * then {@link FileAlreadyExistsException}, nothing written. Where the system can rename without
     * replacing ({@link NoReplaceRename}) that holds also against another process creating it at the
     * same moment; elsewhere the target is checked just before the rename.
     *
     * @throws NotDurableException if the target was created but the folder's fsync failed
     */
    public static void writeNew(Path target, byte[] content) throws IOException {
        write(target, content, false);
    }

    private static void write(Path target, byte[] content, boolean replace) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Path temp = dir.resolve(tempName());
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(content);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            if (replace) {
                try {
                    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    // Some non-default file systems (e.g. in tests) lack atomic moves; a plain replace is the best they offer.
                    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } else {
                switch (NoReplaceRename.rename(temp, target)) {
                    case RENAMED -> { }
                    case TARGET_EXISTS -> throw new FileAlreadyExistsException(target.toString());
                    case NOT_DONE -> {
                        if (Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                            throw new FileAlreadyExistsException(target.toString());
                        }
                        Files.move(temp, target); // no REPLACE_EXISTING: refused if it appeared meanwhile
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        syncDirectory(dir);
    }

    /** A fresh temp file name in the {@code .coffer-tmp-} namespace. */
    public static String tempName() {
        byte[] r = new byte[8];
        RANDOM.nextBytes(r);
        return TEMP_PREFIX + HexFormat.of().formatHex(r);
    }

    /**
     * fsyncs a folder so that a rename or creation in it survives a crash. File systems that cannot
     * open a folder for reading (Windows, Jimfs) or refuse its fsync as unsupported are skipped: they
     * offer no folder fsync. A failing fsync is thrown: the change is made, but a caller must not go
     * on as if it were durable.
     *
     * @throws NotDurableException if the folder's fsync failed
     */
    public static void syncDirectory(Path dir) throws NotDurableException {
        FileChannel ch;
        try {
            ch = FileChannel.open(dir, StandardOpenOption.READ);
        } catch (IOException | UnsupportedOperationException e) {
            return; // no folder fsync on this file system; the rename itself is still atomic
        }
        try (ch) {
            ch.force(true);
        } catch (IOException e) {
            if (noFolderFsync(e)) {
                return; // some network and shared-folder file systems have none; the rename is still atomic
            }
            throw new NotDurableException(dir, e);
        }
    }

    /**
     * True for the errors of a store that has no folder fsync at all (EINVAL, ENOTSUP, EBADF: older
     * CIFS clients, some shared folders), which restic, Dovecot and coreutils skip too; not for EIO
     * or a full disk. By the system's message: Java gives no errno, and the application makes those
     * messages English whatever the session's language (frontend-fuse {@code SystemMessages}).
     */
    static boolean noFolderFsync(IOException e) {
        String reason = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return reason.contains("invalid argument") || reason.contains("not supported") || reason.contains("bad file descriptor");
    }
}
