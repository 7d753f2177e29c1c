package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.crypto.AesSiv;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Read-ahead ({@link ReadAhead} in {@link OpenFile}): sequential reads get their ciphertext from a
 * reader thread and return exactly the file's bytes; a damaged unit ahead of the reader is reported
 * by the read that reaches it; a write overtaking a read-ahead is seen by the next read; a close
 * during a read-ahead waits for it; a failing read-ahead costs nothing but the reader's own read.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReadAheadTest {
    private static final int CALL = 128 * 1024;
    private static final int SIZE = 2 * 1024 * 1024 + 4096 + 7; // many batches, and a merged last unit

    @TempDir
    Path tmp;

    private final Random random = new Random(11);

    private static ContentKeys keys(boolean authenticated) {
        return new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
    }

    private byte[] content(int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }

    /** Writes {@code content} as a new vault file and returns it reopened over an observed channel. */
    private OpenFile written(ContentKeys keys, byte[] content, ObservedChannel[] observed) throws IOException {
        Path file = tmp.resolve("f" + random.nextInt(1_000_000) + ".c9r");
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE), keys, "/dir/f.txt", false)) {
            f.write(ByteBuffer.wrap(content), 0);
        }
        observed[0] = new ObservedChannel(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE));
        return new OpenFile(observed[0], keys, "/dir/f.txt", false);
    }

    private static byte[] readAll(OpenFile f, int call) throws IOException {
        ByteBuffer out = ByteBuffer.allocate((int) f.size());
        long pos = 0;
        ByteBuffer chunk = ByteBuffer.allocate(call);
        while (true) {
            chunk.clear();
            int n = f.read(chunk, pos);
            if (n < 0) {
                break;
            }
            out.put(chunk.flip());
            pos += n;
        }
        return out.array();
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void sequentialReadsOfEverySizeReturnTheFileAndReadAhead(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        byte[] content = content(SIZE);
        ObservedChannel[] ch = new ObservedChannel[1];
        try (OpenFile f = written(keys, content, ch)) {
            for (int call : new int[] {CALL, 32 * 1024, 100_000, 4096 * 40 + 5, 1 << 20}) {
                assertThat(readAll(f, call)).as("calls of " + call).isEqualTo(content);
            }
            // A read-ahead its reader reaches before a reader thread started it is read by the reader.
            assertThat(ch[0].readAheads()).as("reads done by the read-ahead").isPositive();
            // Small calls never read ahead: one unit per call costs more to hand over than it saves.
            long before = ch[0].readAheads();
            assertThat(readAll(f, 4096)).isEqualTo(content);
            assertThat(ch[0].readAheads()).isEqualTo(before);
        }
    }

    @Test
    void aDamagedUnitAheadOfTheReaderFailsTheReadThatReachesItNamingThePath() throws Exception {
        ContentKeys keys = keys(true);
        byte[] content = content(SIZE);
        ObservedChannel[] ch = new ObservedChannel[1];
        OpenFile f = written(keys, content, ch);
        SectorLayout layout = keys.layout();
        long damagedUnit = 100; // in the fourth 128 KiB call
        ByteBuffer flip = ByteBuffer.allocate(1);
        long at = layout.storedUnitOffset(damagedUnit) + 40;
        ch[0].read(flip, at);
        flip.put(0, (byte) (flip.get(0) ^ 1)).clear();
        ch[0].write(flip, at);
        try (f) {
            ByteBuffer chunk = ByteBuffer.allocate(CALL);
            for (int call = 0; call < 3; call++) {
                chunk.clear();
                assertThat(f.read(chunk, (long) call * CALL)).isEqualTo(CALL);
                assertThat(chunk.array()).isEqualTo(Arrays.copyOfRange(content, call * CALL, (call + 1) * CALL));
            }
            // The third call started reading the damaged batch ahead: wait until that read is done.
            ch[0].awaitEvent("ahead " + layout.storedUnitOffset(3L * CALL / SectorLayout.SECTOR));
            chunk.clear();
            assertThatThrownBy(() -> f.read(chunk, 3L * CALL)).isInstanceOf(DamagedFileException.class)
                    .hasMessageContaining("/dir/f.txt").hasMessageContaining("unit 100");
            // Other ranges of the file still read.
            chunk.clear();
            assertThat(f.read(chunk, 4L * CALL)).isEqualTo(CALL);
            assertThat(chunk.array()).isEqualTo(Arrays.copyOfRange(content, 4 * CALL, 5 * CALL));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aWriteOvertakingAReadAheadIsSeenByTheNextRead(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        byte[] content = content(SIZE);
        ObservedChannel[] ch = new ObservedChannel[1];
        try (OpenFile f = written(keys, content, ch)) {
            ByteBuffer chunk = ByteBuffer.allocate(CALL);
            // Each round reads two calls on from where the last one ended, so every read continues
            // the last and reads ahead.
            for (int round = 0; round < 7; round++) {
                // Even rounds: the write lands while the read-ahead still reads; odd: after it has read.
                ch[0].readAheadDelayMillis = round % 2 == 0 ? 5 : 0;
                int call = 2 * round;
                chunk.clear();
                assertThat(f.read(chunk, (long) call * CALL)).isEqualTo(CALL);
                if (round % 2 == 1) {
                    ch[0].awaitEvent("ahead " + keys.layout().storedUnitOffset((call + 1L) * CALL / SectorLayout.SECTOR));
                }
                // Another channel of the same file writes into the range being read ahead.
                int writeAt = (call + 1) * CALL + random.nextInt(CALL - 64);
                byte[] patch = content(1 + random.nextInt(64));
                f.write(ByteBuffer.wrap(patch), writeAt);
                System.arraycopy(patch, 0, content, writeAt, patch.length);
                if (round % 4 == 3) {
                    f.setSize(SIZE - 1000L * round); // a truncate overtaking it too
                    f.setSize(SIZE);
                    Arrays.fill(content, SIZE - 1000 * round, SIZE, (byte) 0);
                }
                chunk.clear();
                int n = f.read(chunk, (long) (call + 1) * CALL);
                assertThat(n).isEqualTo(CALL);
                assertThat(chunk.array()).as("round " + round)
                        .isEqualTo(Arrays.copyOfRange(content, (call + 1) * CALL, (call + 2) * CALL));
            }
            ch[0].readAheadDelayMillis = 0;
            assertThat(readAll(f, CALL)).isEqualTo(content);
            assertThat(ch[0].readAheads()).isGreaterThanOrEqualTo(3);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aCloseDuringAReadAheadWaitsForItBeforeClosingTheChannel(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        byte[] content = content(SIZE);
        ObservedChannel[] ch = new ObservedChannel[1];
        OpenFile f = written(keys, content, ch);
        ch[0].readAheadDelayMillis = 200;
        ByteBuffer chunk = ByteBuffer.allocate(CALL);
        assertThat(f.read(chunk, 0)).isEqualTo(CALL);
        ch[0].awaitEvent("ahead-start "); // the read-ahead is inside its (slow) read
        f.close();
        List<String> events = List.copyOf(ch[0].events);
        assertThat(events).last().isEqualTo("close");
        assertThat(events).filteredOn(e -> e.startsWith("ahead ")).hasSize(1)
                .allMatch(e -> !e.endsWith("after-close"));
        chunk.clear();
        assertThatThrownBy(() -> f.read(chunk, CALL)).isInstanceOf(ClosedChannelException.class);
        assertThat(keys.idleCount()).as("the file's cryptor went back to the pool").isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aFailingReadAheadIsDroppedAndTheReaderReadsItself(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        byte[] content = content(SIZE);
        ObservedChannel[] ch = new ObservedChannel[1];
        try (OpenFile f = written(keys, content, ch)) {
            ch[0].failReadAheads = true;
            ByteBuffer chunk = ByteBuffer.allocate(CALL);
            assertThat(f.read(chunk, 0)).isEqualTo(CALL);
            ch[0].awaitEvent("ahead-failed ");
            assertThat(readAll(f, CALL)).isEqualTo(content);
        }
    }

    @Test
    void readAheadBuffersNeverHoldCleartext() throws Exception {
        // The read-ahead reads ciphertext only: for SIV_XTS, whose units are as long as their
        // cleartext, the bytes it hands over must differ from the file's content.
        ContentKeys keys = keys(false);
        byte[] content = new byte[SIZE]; // zeros: any cleartext in the buffers would be all zero
        ObservedChannel[] ch = new ObservedChannel[1];
        try (OpenFile f = written(keys, content, ch)) {
            ReadAhead ahead = new ReadAhead(ch[0]);
            ahead.start(SectorLayout.HEADER, CALL);
            ch[0].awaitEvent("ahead " + SectorLayout.HEADER);
            byte[] got = ahead.take(SectorLayout.HEADER, CALL);
            assertThat(got).isNotNull();
            assertThat(Arrays.copyOf(got, CALL)).isNotEqualTo(new byte[CALL]);
            ByteBuffer expected = ByteBuffer.allocate(CALL);
            ch[0].read(expected, SectorLayout.HEADER);
            assertThat(Arrays.copyOf(got, CALL)).isEqualTo(expected.array());
            assertThat(ahead.pending()).isFalse();
            ahead.start(SectorLayout.HEADER + CALL, CALL);
            assertThat(ahead.take(0, CALL)).as("another range is dropped").isNull();
            assertThat(ahead.pending()).isFalse();
            assertThat(f.size()).isEqualTo(SIZE);
        }
        assertThat(Files.exists(tmp)).isTrue();
    }
}
