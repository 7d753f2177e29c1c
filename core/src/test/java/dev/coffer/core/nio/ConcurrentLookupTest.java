package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.testing.MemoryTempDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lookups racing with the creation and removal of the same folder: the reader may find the folder
 * or not, but never a damaged entry, and the writer's own next step never fails on a stale cache.
 */
class ConcurrentLookupTest {
    /** In memory: each round's folder creation and removal syncs metadata files, on a disk 3000 times. */
    @TempDir(factory = MemoryTempDir.class)
    Path tmp;

    @Test
    void readersNeverSeeHalfCreatedFoldersAndWritersNeverSeeStaleOnes() throws Exception {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            Path dir = fs.getPath("/d");
            Path file = dir.resolve("x");
            AtomicBoolean stop = new AtomicBoolean();
            List<Throwable> readerErrors = Collections.synchronizedList(new ArrayList<>());
            Thread reader = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                        Files.exists(dir);
                    } catch (NoSuchFileException e) {
                        // absent at that instant: fine
                    } catch (IOException | RuntimeException e) {
                        readerErrors.add(e);
                    }
                }
            });
            reader.start();
            try {
                for (int round = 0; round < 3000; round++) {
                    Files.createDirectory(dir);
                    Files.writeString(file, "round " + round);
                    assertThat(Files.readString(file)).isEqualTo("round " + round);
                    Files.delete(file);
                    Files.delete(dir);
                }
            } finally {
                stop.set(true);
                reader.join();
            }
            assertThat(readerErrors).isEmpty();
        }
    }
}
