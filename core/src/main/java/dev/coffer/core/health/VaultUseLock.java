package dev.coffer.core.health;

import dev.coffer.core.util.Flock;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An advisory lock on a vault's {@code vault.coffer} that keeps a repair and a vault in use apart:
 * a process that has the vault open (a mount) holds it shared for as long as the vault is open; a
 * repair holds it exclusively while it repairs, so neither can start while the other runs. No file
 * is added to the vault folder (it would be synced); the lock lives only in the kernel and goes
 * with the process that holds it, even when it is killed.
 *
 * <p>On Linux a use also holds an exclusive {@code flock} on the vault folder itself: one process
 * uses a vault at a time ({@link VaultOpenElsewhereException}), since two mounts of one vault, each
 * with its own caches, lost each other's fsynced writes (session 33's review). Elsewhere two
 * processes can still open it at once. A repair takes the folder's lock too, so that it is kept out
 * also after a sync client replaced {@code vault.coffer} (a new inode, which no use has locked).
 *
 * <p>On Linux it is a {@code flock(2)} lock on a descriptor of its own, which belongs to that open
 * file: the JDK's file locks are POSIX locks, which a process loses as soon as it closes <em>any</em>
 * descriptor of the file, and every unlock, passphrase change or recovery-key display reads
 * {@code vault.coffer} again, so a repair could have taken the vault from under a live mount
 * (session 33's review). Elsewhere (and where libc cannot be bound) the JDK's lock, with that limit.
 * Advisory only: tools that do not take it (another implementation, a sync client) are not kept out.
 */
public final class VaultUseLock implements AutoCloseable {
    private static final String VAULT_FILE = "vault.coffer";

    private final int fd; // the flock's descriptor, or -1 for the JDK's lock
    private final FileChannel channel;
    private final FileLock lock;
    private int folderFd = -1; // the exclusive flock on the vault folder of a use, or -1

    private VaultUseLock(int fd, FileChannel channel, FileLock lock) {
        this.fd = fd;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * The lock of a process that has the vault open, or null if a repair holds the vault.
     *
     * @throws VaultOpenElsewhereException if another process has it open (Linux)
     */
    public static VaultUseLock forUse(Path vaultDir) throws IOException {
        VaultUseLock use = take(vaultDir.resolve(VAULT_FILE), true);
        if (use != null && use.fd >= 0) {
            try {
                use.folderFd = exclusiveOnFolder(vaultDir);
            } catch (IOException | RuntimeException e) {
                use.close();
                throw e;
            }
        }
        return use;
    }

    /** Whether reading {@code vault.coffer} again leaves this lock in place (a flock), so it need not be taken again. */
    public boolean survivesRereads() {
        return fd >= 0;
    }

    private static int exclusiveOnFolder(Path vaultDir) throws IOException {
        if (!Flock.available(vaultDir)) {
            return -1;
        }
        int dirFd = Flock.open(vaultDir, true);
        if (dirFd < 0) {
            throw new IOException("cannot open the vault folder to lock it (errno " + -dirFd + ")");
        }
        int errno = Flock.lock(dirFd, Flock.LOCK_EX | Flock.LOCK_NB);
        if (errno == 0) {
            return dirFd;
        }
        Flock.close(dirFd);
        if (errno == Flock.EWOULDBLOCK) {
            throw new VaultOpenElsewhereException();
        }
        throw new IOException("cannot lock the vault folder (errno " + errno + ")");
    }

    /**
     * The exclusive lock of a repair, or null if any process has the vault open (mounted) or repairs it.
     * On Linux it also takes the vault folder's exclusive flock: a sync client that re-delivers
     * {@code vault.coffer} (a new file renamed over it) leaves a mount's shared flock on the old file,
     * but the folder stays the one the mount locked.
     */
    public static VaultUseLock forRepair(Path vaultDir) throws IOException {
        VaultUseLock repair = take(vaultDir.resolve(VAULT_FILE), false);
        if (repair != null && repair.fd >= 0) {
            try {
                repair.folderFd = exclusiveOnFolder(vaultDir);
            } catch (VaultOpenElsewhereException inUse) {
                repair.close();
                return null;
            } catch (IOException | RuntimeException e) {
                repair.close();
                throw e;
            }
        }
        return repair;
    }

    private static VaultUseLock take(Path file, boolean shared) throws IOException {
        return Flock.available(file) ? takeWithFlock(file, shared) : takeWithJdk(file, shared);
    }

    private static VaultUseLock takeWithFlock(Path file, boolean shared) throws IOException {
        int fd = Flock.open(file, false);
        if (fd < 0) {
            // Let the JDK say what is wrong (missing, no permission) in its own words.
            FileChannel.open(file, StandardOpenOption.READ).close();
            throw new IOException("cannot open " + file + " to lock it (errno " + -fd + ")");
        }
        int errno = Flock.lock(fd, (shared ? Flock.LOCK_SH : Flock.LOCK_EX) | Flock.LOCK_NB);
        if (errno == 0) {
            return new VaultUseLock(fd, null, null);
        }
        Flock.close(fd);
        if (errno == Flock.EWOULDBLOCK) {
            return null;
        }
        throw new IOException("cannot lock " + file + " (errno " + errno + ")");
    }

    private static VaultUseLock takeWithJdk(Path file, boolean shared) throws IOException {
        // WRITE only because an exclusive POSIX lock needs it; nothing is written.
        FileChannel channel = shared ? FileChannel.open(file, StandardOpenOption.READ)
                : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock(0, Long.MAX_VALUE, shared);
        } catch (OverlappingFileLockException e) {
            lock = null; // this very process holds it
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            return null;
        }
        return new VaultUseLock(-1, channel, lock);
    }

    @Override
    public void close() throws IOException {
        if (folderFd >= 0) {
            Flock.close(folderFd);
            folderFd = -1;
        }
        if (fd >= 0) {
            Flock.close(fd); // ends the flock
            return;
        }
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
