package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A channel opened with DSYNC or SYNC forces each write before it returns, as the default provider's
 * O_DSYNC / O_SYNC do: a journal that relies on it must not lose an acknowledged record in a crash.
 */
class SyncOpenOptionsTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(value = StandardOpenOption.class, names = {"DSYNC", "SYNC"})
    void eachWriteIsOnTheDiskBeforeItReturns(StandardOpenOption sync) throws IOException {
        RecordingFileSystem rec = new RecordingFileSystem();
        // The ciphertext file's length at each of its forces: all a write stored must be there by then.
        List<Long> forcedLengths = new CopyOnWriteArrayList<>();
        rec.fileSyncFails = p -> {
            if (isContentFile(p)) {
                forcedLengths.add(sizeOf(Path.of(p.toString())));
            }
            return false;
        };
        try (CofferFileSystem fs = CofferFileSystems.create(rec.wrap(tmp.resolve("vault")), "sync".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            Path file = fs.getPath("/journal.bin");
            forcedLengths.clear();
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, sync)) {
                ch.write(ByteBuffer.wrap(new byte[4096]));
                assertForcedWithEverythingStored(forcedLengths, 1, tmp.resolve("vault"));
                ch.write(ByteBuffer.wrap(new byte[128 * 1024])); // a batch written behind without the option
                assertForcedWithEverythingStored(forcedLengths, 2, tmp.resolve("vault"));
                ch.truncate(100);
                assertForcedWithEverythingStored(forcedLengths, 3, tmp.resolve("vault"));
            }
            forcedLengths.clear();
            try (FileChannel ch = FileChannel.open(file, options(StandardOpenOption.APPEND, sync))) {
                for (int i = 1; i <= 4; i++) {
                    ch.write(ByteBuffer.wrap(new byte[64 * 1024])); // appends queued without the option
                    assertForcedWithEverythingStored(forcedLengths, i, tmp.resolve("vault"));
                }
            }
        }
    }

    private static OpenOption[] options(OpenOption... options) {
        return options;
    }

    private static void assertForcedWithEverythingStored(List<Long> forcedLengths, int writes, Path vault) throws IOException {
        assertThat(forcedLengths).as("forces after %d writes", writes).hasSizeGreaterThanOrEqualTo(writes);
        assertThat(forcedLengths.get(forcedLengths.size() - 1)).as("stored at the last force")
                .isEqualTo(sizeOf(contentFile(vault)));
    }

    private static boolean isContentFile(Path p) {
        String name = p.getFileName().toString();
        return name.endsWith(".c9r") && !name.equals("dirid.c9r");
    }

    private static Path contentFile(Path vault) throws IOException {
        try (var files = Files.walk(vault.resolve("d"))) {
            return files.filter(p -> Files.isRegularFile(p) && isContentFile(p)).findFirst().orElseThrow();
        }
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
