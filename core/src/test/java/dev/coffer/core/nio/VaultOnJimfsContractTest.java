package dev.coffer.core.nio;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/** The contract on a length-preserving (SIV_XTS) vault whose ciphertext lives in Jimfs. */
class VaultOnJimfsContractTest extends FileSystemContract {
    private FileSystem jimfs;
    private CofferFileSystem fs;

    @Override
    protected Path root() throws IOException {
        jimfs = Jimfs.newFileSystem(Configuration.unix().toBuilder().setAttributeViews("basic", "posix").build());
        fs = CofferFileSystems.create(jimfs.getPath("/vault"), "test passphrase".toCharArray(),
                new VaultCreationOptions(CipherCombo.SIV_XTS, 1 << 14, 220));
        return fs.getPath("/");
    }

    @AfterEach
    void close() throws IOException {
        if (fs != null) {
            fs.close();
        }
        if (jimfs != null) {
            jimfs.close();
        }
    }
}
