package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A channel's transferTo and transferFrom zero their cleartext buffer when they end: no file content stays in the heap. */
class TransferWipesBufferTest {
    @TempDir
    Path tmp;

    @Test
    void transferToZeroesItsBuffer() throws Exception {
        try (CofferFileSystem fs = open()) {
            byte[] content = content();
            Path file = Files.write(fs.getPath("/f"), content);
            List<ByteBuffer> made = new ArrayList<>();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                ((CleartextFileChannel) ch).transferBuffers(recording(made));
                assertThat(ch.transferTo(0, content.length, Channels.newChannel(out))).isEqualTo(content.length);
            }
            assertThat(out.toByteArray()).isEqualTo(content);
            assertThat(made).hasSize(1);
            assertThat(made.get(0).array()).containsOnly((byte) 0);
        }
    }

    @Test
    void transferFromZeroesItsBuffer() throws Exception {
        try (CofferFileSystem fs = open()) {
            byte[] content = content();
            Path file = fs.getPath("/f");
            List<ByteBuffer> made = new ArrayList<>();
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                ((CleartextFileChannel) ch).transferBuffers(recording(made));
                assertThat(ch.transferFrom(Channels.newChannel(new ByteArrayInputStream(content)), 0, content.length))
                        .isEqualTo(content.length);
            }
            assertThat(Files.readAllBytes(file)).isEqualTo(content);
            assertThat(made).hasSize(1);
            assertThat(made.get(0).array()).containsOnly((byte) 0);
        }
    }

    private CofferFileSystem open() throws Exception {
        return CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST);
    }

    /** More than two pieces (the last one only partly fills the buffer), and no zero byte: a zero buffer is no accident. */
    private static byte[] content() {
        byte[] content = new byte[300_000];
        new Random(7).nextBytes(content);
        for (int i = 0; i < content.length; i++) {
            content[i] |= 1;
        }
        return content;
    }

    private static java.util.function.IntFunction<ByteBuffer> recording(List<ByteBuffer> made) {
        return size -> {
            ByteBuffer b = ByteBuffer.allocate(size);
            made.add(b);
            return b;
        };
    }
}
