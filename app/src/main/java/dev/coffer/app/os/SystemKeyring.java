package dev.coffer.app.os;

import com.github.javakeyring.BackendNotSupportedException;
import com.github.javakeyring.Keyring;
import com.github.javakeyring.PasswordAccessException;
import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link PassphraseStore} in the system keyring through java-keyring (Secret Service on Linux,
 * Keychain on macOS, Credential Manager on Windows), under the service name "Coffer" and the
 * vault's id as account. Without a keyring (no Secret Service on the session bus, e.g. in CI or a
 * bare window manager) it reports why and stores nothing. The library takes and returns Strings:
 * those copies cannot be wiped, which is the price of the system keyring; the arrays are.
 *
 * <p>Not responsible for when passphrases are stored or used.
 */
public final class SystemKeyring implements PassphraseStore {
    private static final Logger LOG = LoggerFactory.getLogger(SystemKeyring.class);
    static final String SERVICE = "Coffer";

    private final Keyring keyring;

    private SystemKeyring(Keyring keyring) {
        this.keyring = keyring;
    }

    /** The system keyring, or a store that says why there is none. */
    public static PassphraseStore open() {
        try {
            return new SystemKeyring(Keyring.create());
        } catch (BackendNotSupportedException | RuntimeException e) {
            LOG.info("no system keyring: {}", e.getMessage());
            return PassphraseStore.unavailable(reason(e));
        }
    }

    static String reason(Exception e) {
        return "No system keyring is available (" + e.getMessage() + "). On Linux, install and run a Secret Service "
                + "such as GNOME Keyring (gnome-keyring) or KeePassXC with Secret Service enabled.";
    }

    @Override
    public Optional<String> unavailableReason() {
        return Optional.empty();
    }

    @Override
    public void save(String vaultId, char[] passphrase) throws IOException {
        try {
            keyring.setPassword(SERVICE, vaultId, new String(passphrase));
        } catch (PasswordAccessException | RuntimeException e) {
            throw new IOException("the system keyring refused to store the passphrase: " + e.getMessage(), e);
        } finally {
            Arrays.fill(passphrase, '\0');
        }
    }

    @Override
    public Optional<char[]> load(String vaultId) throws IOException {
        try {
            String p = keyring.getPassword(SERVICE, vaultId);
            return p == null || p.isEmpty() ? Optional.empty() : Optional.of(p.toCharArray());
        } catch (PasswordAccessException e) {
            return Optional.empty(); // nothing stored for this vault
        } catch (RuntimeException e) {
            throw new IOException("the system keyring could not be read: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            keyring.close(); // its D-Bus connection
        } catch (Exception e) {
            LOG.debug("closing the keyring's connection: {}", e.getMessage());
        }
    }

    @Override
    public void delete(String vaultId) throws IOException {
        try {
            keyring.deletePassword(SERVICE, vaultId);
        } catch (PasswordAccessException e) {
            LOG.debug("no passphrase to forget for a vault");
        } catch (RuntimeException e) {
            throw new IOException("the system keyring could not forget the passphrase: " + e.getMessage(), e);
        }
    }
}
