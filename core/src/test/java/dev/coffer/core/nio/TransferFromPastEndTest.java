package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FileChannel.transferFrom: "If the given position is greater than the file's current size then no
 * bytes are transferred" (the default provider returns 0 and leaves the file and the source alone).
 */
class TransferFromPastEndTest {
    @TempDir
    Path tmp;

    @Test
    void aPositionPastTheEndTransfersNothing() throws IOException {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            Path file = Files.writeString(fs.getPath("/f.txt"), "0123456789");
            ReadableByteChannel src = Channels.newChannel(new ByteArrayInputStream("abc".getBytes()));
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                assertThat(ch.transferFrom(src, 11, 3)).isZero();
                assertThat(ch.size()).isEqualTo(10);
                // At the end exactly, it appends (the position is not greater than the size).
                assertThat(ch.transferFrom(src, 10, 3)).isEqualTo(3);
            }
            assertThat(Files.readString(file)).isEqualTo("0123456789abc");
        }
    }
}
