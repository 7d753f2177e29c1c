package dev.coffer.app.vaults;

import java.util.List;

/**
 * A vault just created: its place in the list, and its 48 recovery words to show once.
 *
 * @param vault         the new vault, locked
 * @param recoveryWords the recovery key (secret: shown, never logged)
 */
public record CreatedVault(ManagedVault vault, List<String> recoveryWords) {
    @Override
    public String toString() {
        return "CreatedVault[" + vault + ", 48 recovery words]";
    }
}
