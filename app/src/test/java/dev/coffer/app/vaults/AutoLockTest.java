package dev.coffer.app.vaults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Auto-lock on idle with a clock moved by hand. */
class AutoLockTest {
    @TempDir
    Path tmp;

    private TestVaults t;
    private final AtomicBoolean inUse = new AtomicBoolean();
    private AutoLock autoLock;
    private ManagedVault v;

    @BeforeEach
    void setUp() throws Exception {
        t = new TestVaults(tmp);
        autoLock = new AutoLock(t.service, d -> inUse.get());
        v = t.create("Taxes").vault();
        t.service.update(v, s -> s.withAutoLockMinutes(5));
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
    }

    @Test
    void locksAfterTheIdleMinutesAndNotBefore() {
        t.clock.advance(Duration.ofMinutes(4).plusSeconds(59));
        autoLock.tick();
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        t.clock.advance(Duration.ofSeconds(1));
        autoLock.tick();
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);
    }

    @Test
    void useRestartsTheIdleTime() {
        t.clock.advance(Duration.ofMinutes(4));
        inUse.set(true);
        autoLock.tick();
        inUse.set(false);
        t.clock.advance(Duration.ofMinutes(4));
        autoLock.tick();
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        t.clock.advance(Duration.ofMinutes(1));
        autoLock.tick();
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);
    }

    @Test
    void aDriveInUseWhenTheTimeComesStaysUnlocked() {
        t.clock.advance(Duration.ofMinutes(10));
        inUse.set(true);
        autoLock.tick();
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
    }

    @Test
    void aBusyDriveThatRefusesToUnmountStaysUnlockedAndIsTriedAgain() {
        t.fuse.drives.get(0).busy = true; // open files the probe did not see (another user's process)
        t.clock.advance(Duration.ofMinutes(6));
        autoLock.tick();
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        t.fuse.drives.get(0).busy = false;
        t.clock.advance(Duration.ofSeconds(30));
        autoLock.tick();
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);
    }

    @Test
    void zeroMinutesMeansNever() throws Exception {
        t.service.update(v, s -> s.withAutoLockMinutes(0));
        t.clock.advance(Duration.ofDays(3));
        autoLock.tick();
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
    }

    @Test
    void theIdleTimeStartsAgainAtTheNextUnlock() throws Exception {
        t.clock.advance(Duration.ofMinutes(5));
        autoLock.tick();
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);
        t.clock.advance(Duration.ofHours(1));
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        autoLock.tick();
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
    }
}
