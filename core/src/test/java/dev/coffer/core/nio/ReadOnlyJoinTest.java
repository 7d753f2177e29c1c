package dev.coffer.core.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.coffer.core.content.ContentKeys;
import dev.coffer.core.content.FileHeaders;
import dev.coffer.core.crypto.AesSiv;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer joining a file whose shared ciphertext channel was opened read-only (ChannelOpener's
 * fallback when the store denied write access, e.g. mode 0444, opens it with READ only) writes through
 * a writable channel opened for it. Before, its write threw the unchecked NonWritableChannelException.
 * (Tests run as root, which no mode denies, so the fallback's READ-only open is made directly.)
 */
class ReadOnlyJoinTest {
    @TempDir
    Path dir;

    @Test
    void aWriterJoiningAReadOnlyOpenFileCanWrite() throws Exception {
        OpenFiles files = new OpenFiles(new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), true), new ConflictCopyListeners());
        Path payload = dir.resolve("f.c9r");
        try {
            OpenFiles.Handle made = files.open(payload, EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.CREATE_NEW), "/f", false);
            made.file.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            files.release(made, null); // its last channel closes: the handle is forgotten, the file stays

            OpenFiles.Handle reader = files.open(payload, EnumSet.of(StandardOpenOption.READ), "/f", false);
            OpenFiles.Handle writer = files.open(payload, EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE), "/f", false);
            assertEquals(reader, writer);
            byte[] more = new byte[70_000];
            new SecureRandom().nextBytes(more);
            writer.file.append(ByteBuffer.wrap(more));
            writer.file.write(ByteBuffer.wrap(new byte[] {9}), 1);
            writer.file.force(true);

            byte[] expected = new byte[3 + more.length];
            expected[0] = 1;
            expected[1] = 9;
            expected[2] = 3;
            System.arraycopy(more, 0, expected, 3, more.length);
            ByteBuffer got = ByteBuffer.allocate(expected.length + 10);
            while (reader.file.read(got, got.position()) > 0) {
                // reads until the end
            }
            assertEquals(expected.length, got.position());
            assertArrayEquals(expected, java.util.Arrays.copyOf(got.array(), got.position()));
        } finally {
            files.closeAll();
        }
    }
}
