package dev.coffer.core.nio;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The reference: the contract holds on the default provider itself. */
class PlainFolderContractTest extends FileSystemContract {
    @TempDir
    Path tmp;

    @Override
    protected Path root() {
        return tmp;
    }
}
