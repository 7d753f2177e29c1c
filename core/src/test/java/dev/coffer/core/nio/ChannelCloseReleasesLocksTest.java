package dev.coffer.core.nio;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A channel's close releases its locks (FileChannel's contract), also while other channels keep the
 * file, and so its shared ciphertext channel, open. Before, the locks stayed held until the last
 * channel closed and another channel's tryLock threw OverlappingFileLockException.
 */
class ChannelCloseReleasesLocksTest {
    @TempDir
    Path tmp;

    @Test
    void closingAChannelReleasesItsLocks() throws Exception {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("vault"), "t".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            Path file = fs.getPath("/f.bin");
            Files.write(file, new byte[100]);
            try (FileChannel b = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                FileChannel a = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                FileLock whole = a.lock(0, 10, false);
                FileLock part = a.tryLock(20, 10, true);
                assertNotNull(part);
                a.close();
                assertFalse(whole.isValid());
                assertFalse(part.isValid());
                FileLock got = b.tryLock();
                assertNotNull(got);
                assertThrows(ClosedChannelException.class, whole::release); // as the default provider's
                got.release();
                FileLock again = b.lock(); // a released lock is forgotten; the channel stays usable
                again.release();
            }
        }
    }
}
