package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new file's first write fails on a full disk after part of it was stored, and the cut that undoes
 * it fails too (EIO): the stored file keeps those bytes while the open file is empty. They are the
 * open file's own leftovers, not another program's rewrite: an open that joins it must share it (and
 * see it empty), and the next write through either channel must succeed and leave the file right.
 * Before, the join check saw stored units behind an empty file and took them for a rewrite: the
 * second open read the leftovers as the file's content and the first channel refused every change.
 */
class JoinAfterFailedUndoTest {
    @TempDir
    Path tmp;

    @Test
    void anOpenJoinsAnEmptyFileThatKeepsLeftoversOfItsFailedFirstWrite() throws IOException {
        RecordingFileSystem rec = new RecordingFileSystem();
        Path vault = tmp.resolve("vault");
        byte[] data = new byte[10_000];
        new Random(7).nextBytes(data);
        byte[] tail = "tail".getBytes();
        byte[] expected = Arrays.copyOf(data, data.length + tail.length);
        System.arraycopy(tail, 0, expected, data.length, tail.length);
        try (CofferFileSystem fs = CofferFileSystems.create(rec.wrap(vault), "failed undo".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            Path file = fs.getPath("/f.bin");
            rec.injectsFileFaults = true;
            try (FileChannel first = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                rec.fileWriteBudget.set(1000);
                rec.fileCutsFail = true;
                assertThatThrownBy(() -> first.write(ByteBuffer.wrap(data), 0)).hasMessageContaining("No space left on device");
                assertThat(Files.size(TestVaults.onlyCiphertextFile(vault))).as("the leftovers the failed cut kept")
                        .isEqualTo(1000);
                rec.fileWriteBudget.set(Long.MAX_VALUE);
                rec.fileCutsFail = false;

                try (FileChannel second = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    assertThat(second.size()).as("joined the empty open file").isZero();
                    assertThat(first.write(ByteBuffer.wrap(data), 0)).isEqualTo(data.length);
                    assertThat(second.write(ByteBuffer.wrap(tail), data.length)).isEqualTo(tail.length);
                    assertThat(second.size()).isEqualTo(expected.length);
                }
            }
            // Opened afresh: its size comes from the stored length, so a stale tail would show here.
            assertThat(Files.readAllBytes(file)).isEqualTo(expected);
        }
    }
}
