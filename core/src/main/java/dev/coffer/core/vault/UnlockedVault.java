package dev.coffer.core.vault;

import dev.coffer.core.crypto.MasterKey;
import java.nio.file.Path;
import java.util.List;
import javax.security.auth.Destroyable;

/**
 * The result of unlocking: holds the master key until closed. close() destroys the master key.
 * Also carries the verified configuration and the warnings of the opening (conflict copies of the
 * root files, spec 2.1, each naming the copy).
 *
 * <p>Not responsible for the file system on top of the vault; that layer derives its keys from
 * {@link #masterKey()} and must not use it after {@link #close()}.
 */
public final class UnlockedVault implements AutoCloseable, Destroyable {
    private final Path vaultDir;
    private final MasterKey masterKey;
    private final VaultConfig config;
    private final List<String> warnings;

    UnlockedVault(Path vaultDir, MasterKey masterKey, VaultConfig config, List<String> warnings) {
        this.vaultDir = vaultDir;
        this.masterKey = masterKey;
        this.config = config;
        this.warnings = List.copyOf(warnings);
    }

    public Path vaultDir() {
        return vaultDir;
    }

    /**
     * The live master key (not a copy).
     *
     * @throws IllegalStateException after {@link #close()}
     */
    public MasterKey masterKey() {
        if (masterKey.isDestroyed()) {
            throw new IllegalStateException("vault is locked");
        }
        return masterKey;
    }

    /**
     * A second handle on this vault with its own copy of the master key, closed independently: for a
     * layer that takes over, and later destroys, the handle it is given (opening a file system).
     *
     * @throws IllegalStateException after {@link #close()}
     */
    public UnlockedVault copy() {
        byte[] bytes = masterKey().copyBytes();
        try {
            return new UnlockedVault(vaultDir, MasterKey.of(bytes), config, warnings);
        } finally {
            java.util.Arrays.fill(bytes, (byte) 0);
        }
    }

    public VaultConfig config() {
        return config;
    }

    /** Problems that did not stop the opening, e.g. conflict copies of root files, naming the copies. */
    public List<String> warnings() {
        return warnings;
    }

    /** Destroys the master key; idempotent. */
    @Override
    public void close() {
        destroy();
    }

    @Override
    public void destroy() {
        masterKey.destroy();
    }

    @Override
    public boolean isDestroyed() {
        return masterKey.isDestroyed();
    }
}
