package dev.coffer.core.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * A {@code @TempDir} in /dev/shm (tmpfs), for tests that make thousands of vault changes and are
 * about their order, not about the disk: every change of a folder syncs its metadata file
 * (temp file, fsync, rename), which costs milliseconds on a disk and nothing on tmpfs. A machine
 * without /dev/shm fails the test (no silent fallback to a slow disk).
 */
public final class MemoryTempDir implements TempDirFactory {
    @Override
    public Path createTempDirectory(AnnotatedElementContext elementContext, ExtensionContext extensionContext)
            throws Exception {
        return Files.createTempDirectory(Path.of("/dev/shm"), "coffer-test-");
    }
}
