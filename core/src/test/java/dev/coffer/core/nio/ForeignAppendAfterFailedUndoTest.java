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

/** With a cut owed (a failed change whose undo-cut failed too), a longer version with the same header applied in place by a sync client (rsync --inplace) is not taken for leftovers: a join sees it, the stale handle refuses changes. */
class ForeignAppendAfterFailedUndoTest {
    @TempDir
    Path tmp;

    long joinedSize = -1;
    boolean refusedWrite;

    @Test
    void aForeignInPlaceAppendIsNotTakenForLeftovers() throws IOException {
        RecordingFileSystem rec = new RecordingFileSystem();
        Path vault = tmp.resolve("vault");
        byte[] x = new byte[10_000];
        new Random(1).nextBytes(x);
        byte[] y = new byte[50_000];
        new Random(2).nextBytes(y);
        try (CofferFileSystem fs = CofferFileSystems.create(rec.wrap(vault), "foreign".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            Path file = fs.getPath("/f.bin");
            Files.write(file, x);
            Path ct = TestVaults.onlyCiphertextFile(vault);
            // the other device's version: same header (same file), X then Y
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(y), x.length);
            }
            byte[] remote = Files.readAllBytes(ct);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(x.length);
            }
            rec.injectsFileFaults = true;
            try (FileChannel first = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                rec.fileWriteBudget.set(100);
                rec.fileCutsFail = true;
                assertThatThrownBy(() -> first.write(ByteBuffer.wrap(new byte[40_000]), x.length))
                        .hasMessageContaining("No space left on device"); // cutOwed now
                rec.fileWriteBudget.set(Long.MAX_VALUE);
                rec.fileCutsFail = false;
                // a sync client applies the other device's version in place (rsync --inplace)
                try (FileChannel raw = FileChannel.open(ct, StandardOpenOption.WRITE)) {
                    raw.write(ByteBuffer.wrap(remote), 0);
                    raw.truncate(remote.length);
                }
                try (FileChannel second = FileChannel.open(file, StandardOpenOption.READ)) {
                    joinedSize = second.size();
                } finally {
                    try {
                        first.write(ByteBuffer.wrap(new byte[] {1}), 0); // the program writes on
                    } catch (IOException refused) {
                        refusedWrite = true;
                        // refused: what the check is for
                    }
                }
            }
            assertThat(joinedSize).as("the join sees the other device's version").isEqualTo(x.length + y.length);
            assertThat(refusedWrite).as("the stale handle refuses changes").isTrue();
            byte[] after = Files.readAllBytes(file);
            assertThat(after.length).as("the other device's appended 50 000 bytes survive").isGreaterThanOrEqualTo(x.length + y.length);
        }
    }
}
