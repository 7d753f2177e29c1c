package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A copy inside the vault zeroes its cleartext buffer when it ends: no file content stays in the heap. */
class CopierWipesBufferTest {
    @TempDir
    Path tmp;

    @Test
    void theCopyBufferIsZeroedAfterTheCopy() throws Exception {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            byte[] content = new byte[300_000]; // more than two pieces: the last one only partly fills the buffer
            new Random(7).nextBytes(content);
            for (int i = 0; i < content.length; i++) {
                content[i] |= 1; // no zero byte, so a zero buffer cannot be an accident of the content
            }
            Path source = Files.write(fs.getPath("/source"), content);
            List<ByteBuffer> made = new ArrayList<>();
            new Copier(fs, size -> {
                ByteBuffer b = ByteBuffer.allocate(size);
                made.add(b);
                return b;
            }).copy((CofferPath) source, fs.getPath("/target"));
            assertThat(Files.readAllBytes(fs.getPath("/target"))).isEqualTo(content);
            assertThat(made).hasSize(1);
            assertThat(made.get(0).array()).containsOnly((byte) 0);
        }
    }
}
