package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.crypto.AesSiv;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write that extends the file's partial last unit (tar's next record) takes that unit's old
 * cleartext from the copy the file kept when it wrote it, not from the store; whenever the copy may
 * not be what is stored (the unit cut shorter, another unit last since), the unit is read back as
 * before. Each case checks the content through the file and from the ciphertext alone.
 */
class LastUnitCleartextTest {
    private static final int S = SectorLayout.SECTOR;

    @TempDir
    Path tmp;

    private final ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), true);

    private ObservedChannel channel(Path file) throws IOException {
        return new ObservedChannel(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE));
    }

    @Test
    void tarsSecondRecordExtendsThePartialLastUnitWithoutReadingItBack() throws Exception {
        Path file = tmp.resolve("t.c9r");
        byte[] content = random(4 * S, 1);
        ObservedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/t", false);
        f.write(ByteBuffer.wrap(content, 0, 10 * 1024), 0);
        long readsBefore = ch.count("caller");
        f.write(ByteBuffer.wrap(content, 10 * 1024, 2 * 1024), 10 * 1024);
        f.write(ByteBuffer.wrap(content, 12 * 1024, 100), 12 * 1024); // a new unit, then extended:
        f.write(ByteBuffer.wrap(content, 12 * 1024 + 100, 50), 12 * 1024 + 100);
        assertThat(ch.count("caller")).as("nothing read back from the store").isEqualTo(readsBefore);
        assertThat(OpenFileReads.readAll(f)).isEqualTo(Arrays.copyOf(content, 12 * 1024 + 150));
        f.close();
        assertThat(OpenFileReads.readAll(file, keys)).isEqualTo(Arrays.copyOf(content, 12 * 1024 + 150));
    }

    @Test
    void aLastUnitCutShorterOrWrittenOverInTheMiddleIsStillExtendedWithWhatIsStored() throws Exception {
        Path file = tmp.resolve("c.c9r");
        byte[] model = random(2 * S + 3000, 2);
        ObservedChannel ch = channel(file);
        OpenFile f = new OpenFile(ch, keys, "/c", false);
        f.write(ByteBuffer.wrap(model), 0);
        f.setSize(2 * S + 1000); // cut within the last unit
        model = Arrays.copyOf(model, 2 * S + 1000);
        byte[] more = random(500, 3);
        f.write(ByteBuffer.wrap(more), 2 * S + 1000);
        model = concat(model, more);
        byte[] middle = random(10, 4);
        f.write(ByteBuffer.wrap(middle), 2 * S + 100); // inside the last unit, the size unchanged
        System.arraycopy(middle, 0, model, 2 * S + 100, middle.length);
        byte[] tail = random(200, 5);
        f.write(ByteBuffer.wrap(tail), model.length);
        model = concat(model, tail);
        f.setSize(S + 10); // another unit is now the last
        model = Arrays.copyOf(model, S + 10);
        byte[] end = random(40, 6);
        f.write(ByteBuffer.wrap(end), S + 10);
        model = concat(model, end);
        assertThat(OpenFileReads.readAll(f)).isEqualTo(model);
        f.close();
        assertThat(OpenFileReads.readAll(file, keys)).isEqualTo(model);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private static byte[] random(int len, long seed) {
        byte[] b = new byte[len];
        new Random(seed).nextBytes(b);
        return b;
    }
}
