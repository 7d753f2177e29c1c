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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Thousands of seeded random writes, holes and truncates, with sizes and offsets clustered around
 * unit boundaries, applied to an {@link OpenFile} and to a byte array: after each, the whole content
 * must match, and the ciphertext length must be the layout's.
 */
class OpenFileModelTest {
    private static final int S = SectorLayout.SECTOR;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void randomOperationsMatchAByteArray(boolean authenticated) throws IOException {
        byte[] key = new byte[64];
        new Random(7).nextBytes(key);
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(key), new SecureRandom()), authenticated);
        Random rnd = new Random(authenticated ? 1234 : 4321);
        Path file = tmp.resolve("f.c9r");
        byte[] model = new byte[0];
        OpenFile f = open(file, keys);
        for (int op = 0; op < 2500; op++) {
            int kind = rnd.nextInt(10);
            if (kind < 6) {
                long pos = interesting(rnd, model.length);
                int len = (int) Math.min(interestingLength(rnd), 5L * S);
                byte[] data = new byte[len];
                rnd.nextBytes(data);
                f.write(ByteBuffer.wrap(data), pos);
                int end = (int) Math.max(model.length, pos + len);
                model = Arrays.copyOf(model, end);
                System.arraycopy(data, 0, model, (int) pos, len);
            } else if (kind < 9) {
                long n = interesting(rnd, model.length);
                f.setSize(n);
                model = Arrays.copyOf(model, (int) n);
            } else {
                f.close();
                f = open(file, keys); // everything must survive a reopen from disk
            }
            assertThat(f.size()).as("op %d", op).isEqualTo(model.length);
            assertThat(java.nio.file.Files.size(file)).isEqualTo(keys.layout().ciphertextLength(model.length));
            if (op % 5 == 0 || model.length < 100) {
                assertThat(readAll(f)).as("content after op %d", op).isEqualTo(model);
            } else {
                long from = rnd.nextInt(model.length);
                int len = (int) Math.min(model.length - from, 1 + rnd.nextInt(3 * S));
                ByteBuffer buf = ByteBuffer.allocate(len);
                f.read(buf, from);
                assertThat(buf.array()).isEqualTo(Arrays.copyOfRange(model, (int) from, (int) from + len));
            }
        }
        f.close();
    }

    /** Requests of 16 to 96 units at random offsets, reads of similar size: many whole batches at once. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void largeWritesAndReadsMatchAByteArray(boolean authenticated) throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        Random rnd = new Random(authenticated ? 99 : 77);
        Path file = tmp.resolve("large.c9r");
        byte[] model = new byte[0];
        OpenFile f = open(file, keys);
        for (int op = 0; op < 300; op++) {
            long pos = rnd.nextBoolean() ? (long) rnd.nextInt(40) * S : rnd.nextInt(40 * S);
            int len = 16 * S + rnd.nextInt(80 * S);
            byte[] data = new byte[len];
            rnd.nextBytes(data);
            f.write(ByteBuffer.wrap(data), pos);
            model = Arrays.copyOf(model, (int) Math.max(model.length, pos + len));
            System.arraycopy(data, 0, model, (int) pos, len);
            if (rnd.nextInt(4) == 0) {
                long n = rnd.nextInt(model.length + 1);
                f.setSize(n);
                model = Arrays.copyOf(model, (int) n);
            }
            long from = model.length == 0 ? 0 : rnd.nextInt(model.length);
            int rl = (int) Math.min(model.length - from, 16L * S + rnd.nextInt(60 * S));
            ByteBuffer buf = ByteBuffer.allocate(rl);
            f.read(buf, from);
            assertThat(Arrays.equals(buf.array(), Arrays.copyOfRange(model, (int) from, (int) from + rl)))
                    .as("op %d", op).isTrue();
        }
        f.close();
        f = open(file, keys);
        assertThat(readAll(f)).isEqualTo(model);
        f.close();
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void readsPastTheEndReturnMinusOneAndDirectBuffersWork(boolean authenticated) throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        OpenFile f = open(tmp.resolve("g.c9r"), keys);
        ByteBuffer direct = ByteBuffer.allocateDirect(S + 5);
        for (int i = 0; i < direct.capacity(); i++) {
            direct.put((byte) i);
        }
        direct.flip();
        f.write(direct, 3);
        assertThat(f.size()).isEqualTo(S + 8);
        ByteBuffer out = ByteBuffer.allocateDirect(10);
        assertThat(f.read(out, S + 8)).isEqualTo(-1);
        assertThat(f.read(out, 0)).isEqualTo(10);
        assertThat(out.get(0)).isZero();
        assertThat(out.get(3)).isZero();
        assertThat(out.get(4)).isEqualTo((byte) 1);
        f.close();
    }

    private static OpenFile open(Path file, ContentKeys keys) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        return new OpenFile(ch, keys, "/f", false);
    }

    private static byte[] readAll(OpenFile f) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) f.size());
        while (buf.hasRemaining()) {
            if (f.read(buf, buf.position()) < 0) {
                break;
            }
        }
        return buf.array();
    }

    /** Offsets near unit boundaries (k*S - 17 .. k*S + 17), near the end, or anywhere up to 4 units. */
    private static long interesting(Random rnd, int size) {
        return switch (rnd.nextInt(4)) {
            case 0 -> Math.max(0, rnd.nextInt(5) * S + rnd.nextInt(35) - 17);
            case 1 -> Math.max(0, size + rnd.nextInt(41) - 20);
            case 2 -> rnd.nextInt(16);
            default -> rnd.nextInt(4 * S + 20);
        };
    }

    private static long interestingLength(Random rnd) {
        return switch (rnd.nextInt(4)) {
            case 0 -> 1 + rnd.nextInt(17);
            case 1 -> Math.max(1, rnd.nextInt(3) * S + rnd.nextInt(33) - 16);
            default -> 1 + rnd.nextInt(2 * S);
        };
    }
}
