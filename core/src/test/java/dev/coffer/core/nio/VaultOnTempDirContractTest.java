package dev.coffer.core.nio;

import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** The contract on a vault whose ciphertext lives in a real temp folder. */
class VaultOnTempDirContractTest extends FileSystemContract {
    /** Fast scrypt for tests: the smallest cost the format allows. */
    static final VaultCreationOptions FAST = new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220);

    @TempDir
    Path tmp;
    private CofferFileSystem fs;

    @Override
    protected Path root() throws IOException {
        fs = CofferFileSystems.create(tmp.resolve("vault"), "test passphrase".toCharArray(), FAST);
        return fs.getPath("/");
    }

    @AfterEach
    void close() throws IOException {
        if (fs != null) {
            fs.close();
        }
    }
}
