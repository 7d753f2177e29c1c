package dev.coffer.app.ui;

import dev.coffer.app.os.PassphraseStore;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** A keyring in memory for ViewModel tests (the real one needs a Secret Service on the session bus). */
final class MemoryKeyring implements PassphraseStore {
    final Map<String, char[]> stored = new HashMap<>();

    @Override
    public Optional<String> unavailableReason() {
        return Optional.empty();
    }

    @Override
    public void save(String vaultId, char[] passphrase) {
        stored.put(vaultId, Arrays.copyOf(passphrase, passphrase.length));
        Arrays.fill(passphrase, '\0');
    }

    @Override
    public Optional<char[]> load(String vaultId) {
        return Optional.ofNullable(stored.get(vaultId)).map(p -> Arrays.copyOf(p, p.length));
    }

    @Override
    public void delete(String vaultId) {
        stored.remove(vaultId);
    }

    String get(String vaultId) {
        return stored.containsKey(vaultId) ? new String(stored.get(vaultId)) : null;
    }
}
