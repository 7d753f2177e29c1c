package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stat of a name that is not there (every create's lookup through a mount) answers a plain
 * NoSuchFileException naming the path, without the cost of a stack trace.
 */
class MissingEntryTest {
    @TempDir
    Path tmp;

    @Test
    void aMissingNameIsANoSuchFileExceptionWithoutAStackTrace() throws IOException {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("vault"), "missing passphrase".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            Path folder = Files.createDirectory(fs.getPath("/folder"));
            Files.writeString(folder.resolve("present"), "here");
            for (Class<? extends BasicFileAttributes> type : java.util.List.of(BasicFileAttributes.class,
                    PosixFileAttributes.class)) {
                Path missing = folder.resolve("missing");
                Throwable thrown = catchThrowable(() -> Files.readAttributes(missing, type));
                assertThat(thrown).isInstanceOf(NoSuchFileException.class);
                NoSuchFileException e = (NoSuchFileException) thrown;
                assertThat(e.getFile()).isEqualTo("/folder/missing");
                assertThat(e.getStackTrace()).isEmpty();
                assertThat(Files.readAttributes(folder.resolve("present"), type).size()).isEqualTo(4);
            }
        }
    }
}
