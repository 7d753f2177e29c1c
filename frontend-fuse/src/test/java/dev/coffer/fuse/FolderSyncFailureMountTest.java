package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.nio.RecordingFileSystem;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A vault whose store's folder fsyncs fail (EIO) under a real mount: a file deleted while a program
 * has it open is hidden by libfuse with a move into the mount's reserved folder, which the vault
 * reports as made but not durable. The delete must still count as done; had it failed, the file
 * would sit in the reserved folder unrecorded, and the end of the mount would delete it although
 * the program was told it was not deleted.
 */
class FolderSyncFailureMountTest {
    @TempDir
    Path tmp;

    @Test
    @Timeout(120)
    void aFileDeletedWhileOpenIsHiddenAndStaysReadableThoughTheMoveIsNotDurable() throws Exception {
        RecordingFileSystem rec = new RecordingFileSystem();
        try (CofferFileSystem fs = CofferFileSystems.create(rec.wrap(tmp.resolve("vault")), "test passphrase".toCharArray(),
                VaultMountTest.FAST)) {
            Mounts mounts = new Mounts();
            try {
                Path mnt = mounts.mount(fs.getPath("/"), tmp.resolve("mnt")).mountPoint();
                Path first = Files.writeString(mnt.resolve("first.txt"), "makes the reserved folder");
                try (FileChannel held = FileChannel.open(first, StandardOpenOption.READ)) {
                    Files.delete(first); // the reserved folder is made at its first use, with durable fsyncs
                    assertThat(held.size()).isPositive();
                }
                Path file = Files.writeString(mnt.resolve("open.txt"), "still readable");
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                    rec.failFolderSyncsFromMove(0);

                    Files.delete(file);

                    assertThat(Files.exists(file)).isFalse();
                    java.nio.ByteBuffer content = java.nio.ByteBuffer.allocate(64);
                    ch.read(content, 0);
                    assertThat(new String(content.array(), 0, content.position(), java.nio.charset.StandardCharsets.UTF_8))
                            .isEqualTo("still readable");
                }
                rec.folderSyncFails = folder -> false;
                Files.writeString(mnt.resolve("after.txt"), "the mount works on");
                try (Stream<Path> listed = Files.list(mnt)) {
                    assertThat(listed.map(p -> p.getFileName().toString())).containsExactly("after.txt");
                }
            } finally {
                mounts.close();
            }
        }
    }
}
