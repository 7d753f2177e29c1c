package dev.coffer.app;

import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Creates a vault for an integration test in the test's own JVM, as {@code coffer create VAULT
 * --scrypt-n 16384} would: the defaults but the cheapest scrypt cost a vault allows. For the
 * tests whose subject is another command (mount, serve): a launcher JVM started only to create the
 * vault cost each of them a JVM start (LauncherIT runs {@code coffer create} itself).
 */
final class TestVaults {
    private TestVaults() {}

    static void create(Path vault, String passphrase) throws IOException {
        VaultCreationOptions defaults = VaultCreationOptions.defaults();
        VaultCreationOptions cheapest = new VaultCreationOptions(defaults.cipherCombo(), 1 << 14, defaults.shorteningThreshold());
        CofferFileSystems.create(vault, passphrase.toCharArray(), cheapest).close();
    }
}
