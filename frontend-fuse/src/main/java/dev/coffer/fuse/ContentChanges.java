package dev.coffer.fuse;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the content changes made through one mount (writes, truncates, renames): a {@link ReadStream}
 * serves a slot only if no change ended after the slot was read. Mount-wide rather than per file,
 * because a file's identity is not stable across renames and the count is all that is needed.
 */
final class ContentChanges {
    private final AtomicLong count = new AtomicLong();

    long current() {
        return count.get();
    }

    /** Called after each change has taken effect. */
    void changed() {
        count.incrementAndGet();
    }
}
