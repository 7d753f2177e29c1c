package dev.coffer.core.nio;

import dev.coffer.core.testing.SharedTestData;
import java.io.IOException;
import java.nio.file.Path;

/** This package's view of {@link SharedTestData}: opening may resolve conflicts on disk, so tests open copies. */
final class TestVaults {
    private TestVaults() {}

    static Path testdata() {
        return SharedTestData.testdata();
    }

    static Path copy(String name, Path tmp) throws IOException {
        return SharedTestData.copyVault(name, tmp);
    }
}
