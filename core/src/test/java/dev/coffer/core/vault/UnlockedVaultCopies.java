package dev.coffer.core.vault;

import dev.coffer.core.crypto.MasterKey;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Test helper: an unlocked handle on a byte-for-byte copy of an unlocked vault, made from the
 * original's keys instead of running scrypt again (tests that only look up where things lie in
 * many copies of one vault). The handle has its own copy of the master key and no warnings.
 */
public final class UnlockedVaultCopies {
    private UnlockedVaultCopies() {
    }

    /** {@code original}'s master key and configuration for the copy in {@code copyDir}. */
    public static UnlockedVault at(UnlockedVault original, Path copyDir) {
        byte[] bytes = original.masterKey().copyBytes();
        try {
            return new UnlockedVault(copyDir, MasterKey.of(bytes), original.config(), List.of());
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }
}
