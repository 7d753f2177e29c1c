package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.testing.TmpfsMount;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A long name (stored shortened, with its full name in {@code name.c9s}) created on a full disk fails
 * without leaving half an entry behind: once there is room again, the same name can be created.
 */
class LongNameOnFullDiskTest {
    @TempDir
    Path tmp;

    @Test
    void aLongNameThatCouldNotBeWrittenCanBeCreatedOnceThereIsRoom() throws Exception {
        try (TmpfsMount small = TmpfsMount.mount(tmp.resolve("small"), 8);
                CofferFileSystem fs = CofferFileSystems.create(small.dir().resolve("v"), "pass phrase".toCharArray(),
                        VaultOnTempDirContractTest.FAST)) {
            Path longName = fs.getPath("/" + "a long name ".repeat(20) + ".txt");
            Path ballast = small.fill("ballast.bin");
            assertThatThrownBy(() -> Files.createDirectory(longName)).hasMessageContaining("No space left on device");
            assertThatThrownBy(() -> Files.writeString(longName, "x")).hasMessageContaining("No space left on device");
            assertThat(Files.exists(longName)).isFalse();
            Files.delete(ballast);
            Files.writeString(longName, "written once there was room");
            assertThat(Files.readString(longName)).isEqualTo("written once there was room");
            try (var s = Files.list(fs.getPath("/"))) {
                assertThat(s.map(p -> p.getFileName().toString())).containsExactly(longName.getFileName().toString());
            }
        }
    }
}
