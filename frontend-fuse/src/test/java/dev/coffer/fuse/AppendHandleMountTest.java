package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shared writable mapping and an O_APPEND handle on the same file, through a real vault mount: the
 * mapped page lands at its offset, the append at the end. (Without a writeback cache the kernel
 * writes a mapped page back through the mapping's own handle; that a page sent through an O_APPEND
 * handle still goes to its offset is AppendWritesTest's.)
 */
class AppendHandleMountTest {
    @TempDir
    Path tmp;

    @Test
    @Timeout(120)
    void appendsGoToTheEndAndAMappedPageToItsPlaceThroughTheSameHandle() throws Exception {
        Mounts mounts = new Mounts();
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("vault"), "test passphrase".toCharArray(),
                VaultMountTest.FAST)) {
            try {
                Path mnt = mounts.mount(fs.getPath("/"), tmp.resolve("mnt")).mountPoint();
                Path f = mnt.resolve("mapped.bin");
                byte[] content = new byte[8192];
                Arrays.fill(content, (byte) 'a');
                Files.write(f, content);
                byte[] patch = "patched".getBytes(StandardCharsets.US_ASCII);
                byte[] tail = "appended".getBytes(StandardCharsets.US_ASCII);

                try (FileChannel mapped = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    MappedByteBuffer map = mapped.map(FileChannel.MapMode.READ_WRITE, 0, content.length);
                    // Opened after the mapping, while its page is dirty.
                    try (FileChannel appender = FileChannel.open(f, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                        map.put(100, patch);
                        map.force();
                        appender.write(ByteBuffer.wrap(tail));
                    }
                }

                byte[] expected = Arrays.copyOf(content, content.length + tail.length);
                System.arraycopy(patch, 0, expected, 100, patch.length);
                System.arraycopy(tail, 0, expected, content.length, tail.length);
                assertThat(Files.readAllBytes(f)).isEqualTo(expected);
            } finally {
                mounts.close();
            }
        }
    }
}
