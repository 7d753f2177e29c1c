package dev.coffer.app.vaults;

/**
 * Where a vault is in its life in the app: {@code LOCKED -> UNLOCKING -> UNLOCKED -> LOCKING ->
 * LOCKED}, or {@code ERROR} when unlocking failed for a reason other than a wrong passphrase (the
 * vault can be unlocked again from there). {@link ManagedVault} enforces the transitions.
 */
public enum VaultState {
    LOCKED,
    UNLOCKING,
    UNLOCKED,
    LOCKING,
    ERROR
}
