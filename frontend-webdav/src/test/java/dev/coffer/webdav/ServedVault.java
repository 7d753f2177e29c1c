package dev.coffer.webdav;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Test fixture: a new vault in a temp folder, unlocked and served over WebDAV on a free loopback
 * port. {@link #close} stops the server and locks the vault.
 */
final class ServedVault implements AutoCloseable {
    /** Cheap key derivation: the tests are about WebDAV, not scrypt. */
    static final VaultCreationOptions FAST = new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220);

    final CofferFileSystem fs;
    final Path root;
    final WebDavServer server;

    ServedVault(Path tmp) throws IOException {
        fs = CofferFileSystems.create(tmp.resolve("vault"), "test passphrase".toCharArray(), FAST);
        root = fs.getPath("/");
        server = WebDavServer.start(root, 0);
    }

    String url() {
        return server.url();
    }

    @Override
    public void close() throws IOException {
        try {
            server.close();
        } finally {
            fs.close();
        }
    }
}
