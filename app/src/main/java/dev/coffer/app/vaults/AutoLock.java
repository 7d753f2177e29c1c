package dev.coffer.app.vaults;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Locks vaults that were idle for their auto-lock minutes. Idle means: no program had a file open in
 * the drive at any {@link #tick()} since the last one that saw one (or since unlocking). The caller
 * ticks it about every 30 seconds; the clock is the service's, so tests move time by hand. A drive
 * that is busy when its time comes is simply used again, so it is not locked. Also locks vaults
 * whose drive was unmounted from outside the app.
 *
 * <p>Not responsible for the timer thread (the app schedules {@link #tick()}).
 */
public final class AutoLock {
    private static final Logger LOG = LoggerFactory.getLogger(AutoLock.class);

    private final VaultService service;
    private final ActivityProbe probe;
    private final Map<String, Instant> lastUse = new HashMap<>();

    public AutoLock(VaultService service, ActivityProbe probe) {
        this.service = service;
        this.probe = probe;
    }

    /** Looks at every unlocked vault once; locks those idle for longer than their setting. */
    public synchronized void tick() {
        service.lockVanishedDrives();
        Instant now = service.clock().instant();
        for (ManagedVault v : service.vaults()) {
            UnlockedSession session = v.state() == VaultState.UNLOCKED ? v.session().orElse(null) : null;
            if (session == null) {
                lastUse.remove(v.id());
                continue;
            }
            Instant last = lastUse.merge(v.id(), session.unlockedAt(), (a, b) -> a.isAfter(b) ? a : b);
            if (probe.inUse(session.drive())) {
                lastUse.put(v.id(), now);
                continue;
            }
            int minutes = v.settings().autoLockMinutes();
            if (minutes > 0 && !Duration.between(last, now).minus(Duration.ofMinutes(minutes)).isNegative()) {
                try {
                    service.lock(v, false);
                    lastUse.remove(v.id());
                } catch (VaultException | IllegalStateException e) {
                    LOG.debug("auto-lock did not lock a vault: {}", e.getMessage());
                }
            }
        }
    }
}
