package dev.coffer.fuse;

/**
 * The two time limits of a {@link ReadStream}: a slot older than {@code maxAgeNanos} is not served
 * (a change made to the vault outside the mount cannot be counted), and a streamer that waited
 * {@code idleNanos} for a reader ends. Tests use other limits than a mount's.
 */
record StreamTiming(long maxAgeNanos, long idleNanos) {
    /**
     * A mount's: 1 s (the kernel itself serves an open file's cached pages without asking for as long
     * as it stays open), and 0.5 s (a paused reader costs no ring for long).
     */
    static final StreamTiming MOUNT = new StreamTiming(1_000_000_000L, 500_000_000L);
}
