package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The lock table's rules with a controlled clock: conflicts by scope and depth, refresh, expiry, caps. */
class LockManagerTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final LockManager locks = new LockManager(now::get);

    private static DavPath p(String s) {
        return DavPath.parse(s).orElseThrow();
    }

    @Test
    void exclusiveConflictsWithEverythingSharedWithExclusiveOnly() {
        assertThat(locks.lock(p("/a"), false, false, null, 60)).isPresent();
        assertThat(locks.lock(p("/a"), false, false, null, 60)).isPresent();
        assertThat(locks.lock(p("/a"), false, true, null, 60)).isEmpty();
        assertThat(locks.lock(p("/b"), false, true, null, 60)).isPresent();
        assertThat(locks.lock(p("/b"), false, false, null, 60)).isEmpty();
    }

    @Test
    void depthDecidesWhatALockCovers() {
        DavLock deep = locks.lock(p("/d"), true, true, null, 60).orElseThrow();
        assertThat(locks.covering(p("/d/x/y"))).containsExactly(deep);
        assertThat(locks.lock(p("/d/x"), false, true, null, 60)).as("below a depth-infinity lock").isEmpty();
        DavLock shallow = locks.lock(p("/s"), false, true, null, 60).orElseThrow();
        assertThat(locks.covering(p("/s/x"))).isEmpty();
        assertThat(locks.covering(p("/s"))).containsExactly(shallow);
        assertThat(locks.lock(p("/s/x"), false, true, null, 60)).as("below a depth-0 lock").isPresent();
        assertThat(locks.lock(p("/"), true, false, null, 60)).as("a deep lock above exclusive locks").isEmpty();
    }

    @Test
    void locksExpireAndRefreshesExtendThem() {
        DavLock l = locks.lock(p("/t"), false, true, null, 10).orElseThrow();
        now.addAndGet(9_000_000_000L);
        assertThat(locks.refresh(l.token(), p("/t"), 10)).isPresent();
        now.addAndGet(9_000_000_000L);
        assertThat(locks.covering(p("/t"))).hasSize(1);
        now.addAndGet(2_000_000_000L);
        assertThat(locks.covering(p("/t"))).isEmpty();
        assertThat(locks.refresh(l.token(), p("/t"), 10)).isEmpty();
        assertThat(locks.lock(p("/t"), false, true, null, 10)).isPresent();
    }

    @Test
    void timeoutsAreCappedAndDefaulted() {
        assertThat(locks.lock(p("/x"), false, true, null, 1_000_000).orElseThrow().timeoutSeconds()).isEqualTo(LockManager.MAX_TIMEOUT_SECONDS);
        assertThat(locks.lock(p("/y"), false, true, null, 0).orElseThrow().timeoutSeconds()).isEqualTo(LockManager.DEFAULT_TIMEOUT_SECONDS);
        assertThat(LockMethods.timeoutSeconds("Infinite, Second-4100000000")).isEqualTo(LockManager.MAX_TIMEOUT_SECONDS);
        assertThat(LockMethods.timeoutSeconds("Second-30")).isEqualTo(30);
        assertThat(LockMethods.timeoutSeconds("Extra, Second-5")).isEqualTo(5);
    }

    @Test
    void unlockNeedsTheRightTokenAndPath() {
        DavLock l = locks.lock(p("/u"), true, true, null, 60).orElseThrow();
        assertThat(locks.unlock("opaquelocktoken:other", p("/u"))).isFalse();
        assertThat(locks.unlock(l.token(), p("/elsewhere"))).isFalse();
        assertThat(locks.unlock(l.token(), p("/u/child"))).as("any resource the lock covers").isTrue();
        assertThat(locks.covering(p("/u"))).isEmpty();
    }

    @Test
    void locksOfRemovedResourcesAreForgotten() {
        locks.lock(p("/r/a"), false, true, null, 60);
        locks.lock(p("/r/b/c"), false, false, null, 60);
        DavLock keep = locks.lock(p("/rr"), false, true, null, 60).orElseThrow();
        locks.removeAtOrBelow(p("/r"));
        assertThat(locks.rootedAtOrBelow(p("/"))).isEqualTo(List.of(keep));
    }
}
