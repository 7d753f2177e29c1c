package dev.coffer.fuse;

/**
 * What one timespec of a utimens call asks for. UTIME_NOW and UTIME_OMIT are spelled differently by
 * each system's C library, which FUSE passes through: Linux's (1 << 30) - 1 and (1 << 30) - 2, macOS's
 * -1 and -2. A real time's nanoseconds lie in [0, 999,999,999], so both spellings are recognised on every
 * system: read with Linux's alone, macOS's "now" would set the time to one nanosecond before the given
 * second.
 */
enum UtimeRequest {
    /** Set the time given. */
    SET,
    /** Set the current time. */
    NOW,
    /** Leave the time as it is. */
    OMIT;

    private static final long LINUX_NOW = (1L << 30) - 1;
    private static final long LINUX_OMIT = (1L << 30) - 2;
    private static final long MACOS_NOW = -1;
    private static final long MACOS_OMIT = -2;

    static UtimeRequest of(long nanoseconds) {
        if (nanoseconds == LINUX_NOW || nanoseconds == MACOS_NOW) {
            return NOW;
        }
        if (nanoseconds == LINUX_OMIT || nanoseconds == MACOS_OMIT) {
            return OMIT;
        }
        return SET;
    }
}
