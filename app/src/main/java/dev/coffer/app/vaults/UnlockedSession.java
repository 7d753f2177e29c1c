package dev.coffer.app.vaults;

import dev.coffer.core.health.VaultUseLock;
import dev.coffer.core.nio.CofferFileSystem;
import java.io.IOException;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an unlocked vault holds: its open file system (the keys), the drive showing it, the vault's
 * shared in-use lock (so that {@code coffer check --repair} refuses while it is unlocked), and when
 * it was unlocked (auto-lock counts idle time from there).
 *
 * <p>The in-use lock is a POSIX lock on vault.coffer: the kernel drops it when this process closes
 * any descriptor of that file, which the passphrase operations do; they call {@link #renewInUse()}
 * afterwards. Not responsible for the order of locking ({@link VaultService#lock}).
 */
final class UnlockedSession {
    private static final Logger LOG = LoggerFactory.getLogger(UnlockedSession.class);

    private final CofferFileSystem fileSystem;
    private final Drive drive;
    private final Instant unlockedAt;
    private VaultUseLock inUse;

    UnlockedSession(CofferFileSystem fileSystem, Drive drive, VaultUseLock inUse, Instant unlockedAt) {
        this.fileSystem = fileSystem;
        this.drive = drive;
        this.inUse = inUse;
        this.unlockedAt = unlockedAt;
    }

    CofferFileSystem fileSystem() {
        return fileSystem;
    }

    Drive drive() {
        return drive;
    }

    Instant unlockedAt() {
        return unlockedAt;
    }

    /** Takes the in-use lock again after vault.coffer was read (which dropped it). */
    synchronized void renewInUse() {
        if (inUse != null && inUse.survivesRereads()) {
            return; // a flock (Linux): reading vault.coffer again did not drop it
        }
        try {
            releaseInUse();
            inUse = VaultUseLock.forUse(fileSystem.vaultDir());
            if (inUse == null) {
                LOG.warn("a repair took the vault while it was unlocked");
            }
        } catch (IOException e) {
            LOG.warn("the vault's in-use lock could not be taken again: {}", e.getClass().getSimpleName());
        }
    }

    synchronized void releaseInUse() throws IOException {
        if (inUse != null) {
            VaultUseLock l = inUse;
            inUse = null;
            l.close();
        }
    }
}
