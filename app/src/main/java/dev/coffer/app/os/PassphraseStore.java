package dev.coffer.app.os;

import java.io.IOException;
import java.util.Optional;

/**
 * Where a vault's passphrase may be remembered: the system keyring, never anywhere else. Arrays
 * handed in are wiped; arrays handed out belong to the caller, who wipes them.
 *
 * <p>Not responsible for deciding when to remember (the unlock dialog asks the person).
 */
public interface PassphraseStore extends AutoCloseable {
    /** Empty if passphrases can be stored; otherwise why not, to show next to the disabled option. */
    Optional<String> unavailableReason();

    /** Remembers {@code passphrase} for the vault {@code vaultId}, replacing an earlier one; wipes the array. */
    void save(String vaultId, char[] passphrase) throws IOException;

    /** The remembered passphrase, if there is one. */
    Optional<char[]> load(String vaultId) throws IOException;

    /** Forgets the vault's passphrase (nothing happens if none was remembered). */
    void delete(String vaultId) throws IOException;

    /** Lets go of the keyring's connection (the app's is closed when it quits); nothing to do for most stores. */
    @Override
    default void close() {
        // most stores hold no connection
    }

    /** A store that cannot store, for sessions without a keyring. */
    static PassphraseStore unavailable(String reason) {
        return new PassphraseStore() {
            @Override
            public Optional<String> unavailableReason() {
                return Optional.of(reason);
            }

            @Override
            public void save(String vaultId, char[] passphrase) throws IOException {
                java.util.Arrays.fill(passphrase, '\0');
                throw new IOException(reason);
            }

            @Override
            public Optional<char[]> load(String vaultId) {
                return Optional.empty();
            }

            @Override
            public void delete(String vaultId) {
                // nothing was stored
            }
        };
    }
}
