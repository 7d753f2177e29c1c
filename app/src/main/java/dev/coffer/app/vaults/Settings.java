package dev.coffer.app.vaults;

import java.util.List;
import java.util.Objects;

/**
 * Everything the app keeps between runs: the vault list in the order shown, and the preferences.
 * Immutable; written by {@link SettingsStore}.
 *
 * @param vaults      the vaults in the list
 * @param preferences the app-wide preferences
 */
public record Settings(List<VaultSettings> vaults, Preferences preferences) {
    public Settings {
        vaults = vaults == null ? List.of() : List.copyOf(vaults);
        preferences = Objects.requireNonNullElseGet(preferences, Preferences::defaults);
    }

    public static Settings empty() {
        return new Settings(List.of(), Preferences.defaults());
    }
}
