package dev.coffer.app.vaults;

import dev.coffer.core.vault.InvalidPassphraseException;
import dev.coffer.core.vault.InvalidRecoveryKeyException;
import dev.coffer.core.vault.PassphraseOpensConflictCopyException;
import dev.coffer.core.vault.VaultFormatException;
import java.io.IOException;

/**
 * The core's failures to open or re-key a vault, as the {@link Problem} the person hears: one
 * translation for unlock, the health check and the key operations, ordered specific to general.
 */
final class CoreFailures {
    private CoreFailures() {}

    static VaultException translate(IOException e) {
        if (e instanceof VaultException ve) {
            return ve;
        }
        if (e instanceof InvalidPassphraseException) {
            return new VaultException(Problem.WRONG_PASSPHRASE, "", e);
        }
        if (e instanceof InvalidRecoveryKeyException) {
            // core's message names a word position or the checksum, never a word
            return new VaultException(Problem.WRONG_RECOVERY_KEY, e.getMessage(), e);
        }
        if (e instanceof PassphraseOpensConflictCopyException) {
            // before the format's row: a passphrase changed on another device, nothing is damaged
            return new VaultException(Problem.PASSPHRASE_OF_CONFLICT_COPY, e.getMessage(), e);
        }
        if (e instanceof VaultFormatException) {
            return new VaultException(Problem.DAMAGED_CONFIGURATION, e.getMessage(), e);
        }
        return new VaultException(Problem.OTHER, VaultService.describe(e), e);
    }
}
