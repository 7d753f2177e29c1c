package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.crypto.AesSiv;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A write whose end passes the largest size the format stores (or Long.MAX_VALUE: before, position +
 * len overflowed and such a write returned its length having written nothing), and a size change past
 * it, are refused with "File too large" and change nothing.
 */
class FileTooLargeTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void writesAndSizesPastTheFormatsLimitAreRefused(boolean authenticated) throws Exception {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        Path path = dir.resolve("f.c9r");
        long max = keys.layout().maxCleartextSize();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            OpenFile file = new OpenFile(ch, keys, "/f", false);
            try {
                file.write(ByteBuffer.wrap("hello".getBytes()), 0);
                long stored = Files.size(path);
                ByteBuffer ten = ByteBuffer.wrap(new byte[10]);
                assertThatThrownBy(() -> file.write(ten, Long.MAX_VALUE - 5))
                        .isInstanceOf(FileTooLargeException.class).hasMessageContaining("File too large");
                assertThatThrownBy(() -> file.write(ten, max - 9)).isInstanceOf(FileTooLargeException.class);
                assertThatThrownBy(() -> file.setSize(max + 1)).isInstanceOf(FileTooLargeException.class);
                assertThatThrownBy(() -> file.setSize(Long.MAX_VALUE)).isInstanceOf(FileTooLargeException.class);
                assertThat(ten.remaining()).isEqualTo(10);
                assertThat(file.size()).isEqualTo(5);
                assertThat(Files.size(path)).isEqualTo(stored);
            } finally {
                file.close();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, SectorLayout.HMAC_OVERHEAD})
    void theLargestSizeHasAStorableCiphertextLength(int overhead) {
        SectorLayout layout = new SectorLayout(overhead);
        long max = layout.maxCleartextSize();
        long length = layout.ciphertextLength(max);
        assertThat(length).isPositive();
        assertThat(layout.cleartextSize(length)).isEqualTo(max);
        assertThat(Long.MAX_VALUE - length).isLessThan(layout.storedUnitSize());
    }
}
