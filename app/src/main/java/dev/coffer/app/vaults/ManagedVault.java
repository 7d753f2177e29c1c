package dev.coffer.app.vaults;

import java.util.Optional;

/**
 * The vault state machine: one vault in the app's list with its settings, its {@link VaultState}
 * and, while unlocked, its session. The only transitions are
 * {@code LOCKED|ERROR -> UNLOCKING -> UNLOCKED|LOCKED|ERROR} and
 * {@code UNLOCKED -> LOCKING -> LOCKED|UNLOCKED}; anything else is a bug and throws
 * {@link IllegalStateException}. Thread-safe: the UI reads it while a background task unlocks.
 *
 * <p>Not responsible for doing the work of a transition ({@link VaultService} unlocks, mounts and
 * locks, then moves the state on) or for telling anybody (the service notifies its listeners).
 */
public final class ManagedVault {
    private VaultSettings settings;
    private VaultState state = VaultState.LOCKED;
    private VaultException lastProblem;
    private UnlockedSession session;

    ManagedVault(VaultSettings settings) {
        this.settings = settings;
    }

    public synchronized VaultSettings settings() {
        return settings;
    }

    public String id() {
        return settings().id();
    }

    public synchronized VaultState state() {
        return state;
    }

    /** Why the vault is in {@link VaultState#ERROR}; empty in the other states. */
    public synchronized Optional<VaultException> problem() {
        return state == VaultState.ERROR ? Optional.ofNullable(lastProblem) : Optional.empty();
    }

    /** Where the drive is while unlocked (a folder or a URL). */
    public synchronized Optional<Drive> drive() {
        return session == null ? Optional.empty() : Optional.of(session.drive());
    }

    /**
     * While unlocked, what core found limiting about the file system holding the vault folder
     * (read-only: the drive is read-only too; case-insensitive; names too short), one sentence each.
     */
    public synchronized java.util.List<String> storeWarnings() {
        return session == null ? java.util.List.of() : session.fileSystem().storeLimits().warnings();
    }

    /** True while unlocked with a read-only drive (asked for, or the vault folder cannot be written). */
    public synchronized boolean readOnlyDrive() {
        return session != null && session.fileSystem().isReadOnly();
    }

    synchronized Optional<UnlockedSession> session() {
        return Optional.ofNullable(session);
    }

    synchronized void settings(VaultSettings changed) {
        if (!changed.id().equals(settings.id())) {
            throw new IllegalArgumentException("settings of another vault");
        }
        settings = changed;
    }

    synchronized void beginUnlock() {
        require(state == VaultState.LOCKED || state == VaultState.ERROR, "unlock");
        state = VaultState.UNLOCKING;
        lastProblem = null;
    }

    synchronized void unlocked(UnlockedSession s) {
        require(state == VaultState.UNLOCKING, "finish unlocking");
        session = s;
        state = VaultState.UNLOCKED;
    }

    /** A wrong passphrase leaves the vault simply locked; every other problem is shown as its error. */
    synchronized void unlockFailed(VaultException problem) {
        require(state == VaultState.UNLOCKING, "fail unlocking");
        state = problem.problem() == Problem.WRONG_PASSPHRASE ? VaultState.LOCKED : VaultState.ERROR;
        lastProblem = problem;
    }

    synchronized UnlockedSession beginLock() {
        require(state == VaultState.UNLOCKED, "lock");
        state = VaultState.LOCKING;
        return session;
    }

    /** The drive stayed (busy): the vault is still unlocked. */
    synchronized void lockFailed() {
        require(state == VaultState.LOCKING, "fail locking");
        state = VaultState.UNLOCKED;
    }

    synchronized void locked() {
        require(state == VaultState.LOCKING, "finish locking");
        session = null;
        state = VaultState.LOCKED;
    }

    private void require(boolean allowed, String what) {
        if (!allowed) {
            throw new IllegalStateException("cannot " + what + " a vault that is " + state);
        }
    }

    @Override
    public synchronized String toString() {
        return settings.name() + " (" + state + ")";
    }
}
