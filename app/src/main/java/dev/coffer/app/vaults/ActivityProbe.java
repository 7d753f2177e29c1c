package dev.coffer.app.vaults;

/**
 * Tells {@link AutoLock} whether a drive is being used right now (a program has a file open in it,
 * or a shell's working folder is inside it).
 *
 * <p>Not responsible for deciding when to lock.
 */
@FunctionalInterface
public interface ActivityProbe {
    /** True if something uses the drive at this moment. */
    boolean inUse(Drive drive);
}
