package dev.coffer.core.health;

import java.io.IOException;

/**
 * The vault is in use by another process (mounted, served, or unlocked in the app): two processes
 * writing one vault, each with caches of its own, would overwrite each other's changes (a file
 * extended through each: the one zero-fills where the other wrote).
 */
public final class VaultOpenElsewhereException extends IOException {
    private static final long serialVersionUID = 1L;

    public VaultOpenElsewhereException() {
        super("the vault is already open in another Coffer (mounted, served or unlocked in the app): lock it there first");
    }
}
