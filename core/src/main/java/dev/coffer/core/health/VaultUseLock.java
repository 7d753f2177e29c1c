package dev.coffer.core.health;

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
 * <p>Advisory only: tools that do not take it (another implementation, a sync client) are not kept
 * out. A POSIX lock is also dropped when the holding process closes any other descriptor of
 * {@code vault.coffer}, so the holder takes it after the vault is unlocked and must not reopen that file.
 */
public final class VaultUseLock implements AutoCloseable {
    private static final String VAULT_FILE = "vault.coffer";

    private final FileChannel channel;
    private final FileLock lock;

    private VaultUseLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** The shared lock of a process that has the vault open, or null if a repair holds the vault. */
    public static VaultUseLock forUse(Path vaultDir) throws IOException {
        return take(FileChannel.open(vaultDir.resolve(VAULT_FILE), StandardOpenOption.READ), true);
    }

    /** The exclusive lock of a repair, or null if any process has the vault open (mounted) or repairs it. */
    public static VaultUseLock forRepair(Path vaultDir) throws IOException {
        // WRITE only because an exclusive POSIX lock needs it; nothing is written.
        return take(FileChannel.open(vaultDir.resolve(VAULT_FILE), StandardOpenOption.READ, StandardOpenOption.WRITE), false);
    }

    private static VaultUseLock take(FileChannel channel, boolean shared) throws IOException {
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
        return new VaultUseLock(channel, lock);
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
