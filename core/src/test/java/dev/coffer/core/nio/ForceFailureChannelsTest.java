package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file's fsync fails once (EIO): the channel that forced hears it, and so does every other channel
 * of the file open then, once, at its next force (they share one ciphertext descriptor, to which the
 * kernel reports a writeback error once); a channel opened afterwards does not.
 */
class ForceFailureChannelsTest {
    @TempDir
    Path tmp;

    @Test
    void everyChannelOpenAtAFailedForceHearsOfItOnce() throws IOException {
        RecordingFileSystem rec = new RecordingFileSystem();
        AtomicInteger failuresLeft = new AtomicInteger();
        rec.fileSyncFails = p -> failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
        try (CofferFileSystem fs = CofferFileSystems.create(rec.wrap(tmp.resolve("vault")), "force failure".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            Path file = fs.getPath("/f.txt");
            try (FileChannel writer = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    FileChannel other = FileChannel.open(file, StandardOpenOption.WRITE)) {
                writer.write(ByteBuffer.wrap("data".getBytes()));
                failuresLeft.set(1);
                assertThatThrownBy(() -> other.force(true)).hasMessageContaining("Input/output error");
                other.force(true); // told already
                assertThatThrownBy(() -> writer.force(true)).as("the writer whose data it was")
                        .hasMessageContaining("earlier fsync").hasMessageContaining("Input/output error");
                writer.force(true); // once
                try (FileChannel later = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    later.force(true); // opened after the failure: nothing to tell
                }
            }
        }
    }
}
