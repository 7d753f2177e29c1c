package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.testing.TmpfsMount;
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

/** A write that fails for lack of space leaves the file exactly as it was before that write. */
class DiskFullTest {
    @TempDir
    Path tmp;

    /**
     * A write that adds units and also rewrites the old last unit in place: the new unit fits, the
     * rewrite fails (EIO, or ENOSPC on a copy-on-write store). The new unit must go again, or the old
     * last unit, still tagged as the last, would fail authentication once the file is opened again.
     */
    @org.junit.jupiter.api.Test
    void aWriteWhoseRewriteOfTheOldLastUnitFailsLeavesTheFileReadable() throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), true);
        SectorLayout layout = keys.layout();
        Path file = tmp.resolve("f.c9r");
        byte[] old = new byte[100];
        Arrays.fill(old, (byte) 'o');
        SpaceLimitedChannel ch = new SpaceLimitedChannel(FileChannel.open(file, StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE), Long.MAX_VALUE);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false, () -> Long.MAX_VALUE / 2)) {
            f.write(ByteBuffer.wrap(old), 0);
            f.force(true);
            ch.setBudget(layout.storedUnitLength(1, 8100)); // room for the new unit 1 only
            assertThatThrownBy(() -> f.write(ByteBuffer.wrap(new byte[8000]), 100)).isInstanceOf(IOException.class);
            assertThat(f.size()).isEqualTo(100);
        }
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE), keys, "/f", false)) {
            assertThat(f.size()).isEqualTo(100);
            ByteBuffer back = ByteBuffer.allocate(100);
            f.read(back, 0);
            assertThat(back.array()).isEqualTo(old);
        }
    }

    /**
     * SIV_XTS gives a file a new key when its size crosses 16 bytes: a write that does and runs out of
     * space must leave the old key, header and bytes, not a mix that decrypts to garbage without an error.
     */
    @org.junit.jupiter.api.Test
    void aFailedWriteThatGaveATinyFileANewKeyLeavesTheFileAsItWas() throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), false);
        Path file = tmp.resolve("f.c9r");
        byte[] old = "0123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        SpaceLimitedChannel ch = new SpaceLimitedChannel(FileChannel.open(file, StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE), Long.MAX_VALUE);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(old), 0);
            ch.setGrowthOnly(true); // a store that overwrites in place: putting the old bytes back needs no room
            ch.setBudget(4096); // the disk fills after one page
            assertThatThrownBy(() -> f.write(ByteBuffer.wrap(new byte[8192]), 10)).isInstanceOf(IOException.class);
            assertThat(f.size()).isEqualTo(10);
            ByteBuffer back = ByteBuffer.allocate(10);
            f.read(back, 0);
            assertThat(back.array()).isEqualTo(old);
            ch.setBudget(Long.MAX_VALUE);
            f.write(ByteBuffer.wrap(new byte[] {'X'}), 10); // still a tiny file: a new key once more
        }
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE), keys, "/f", false)) {
            assertThat(f.size()).isEqualTo(11);
            ByteBuffer back = ByteBuffer.allocate(11);
            f.read(back, 0);
            assertThat(new String(back.array(), java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("0123456789X");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aFailedAppendOrFirstWriteLeavesTheFileAsItWas(boolean authenticated) throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        Path file = tmp.resolve("f.c9r");
        Random rnd = new Random(3);
        for (int budget : new int[] {0, 10, 47, 48, 100, 4000, 9000, 20_000}) {
            // A new file whose first write runs out of space stays empty.
            java.nio.file.Files.deleteIfExists(file);
            try (OpenFile f = new OpenFile(failing(file, budget), keys, "/f", false)) {
                byte[] big = new byte[30_000];
                rnd.nextBytes(big);
                assertThatThrownBy(() -> f.write(ByteBuffer.wrap(big), 0)).hasMessageContaining("No space left");
                assertThat(f.size()).isZero();
            }
            assertThat(java.nio.file.Files.size(file)).as("budget %d", budget).isZero();
            // An existing file whose append runs out of space keeps its old content and length.
            byte[] old = new byte[5000 + budget % 4096];
            rnd.nextBytes(old);
            try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE), keys, "/f", false)) {
                f.write(ByteBuffer.wrap(old), 0);
            }
            long oldLength = java.nio.file.Files.size(file);
            try (OpenFile f = new OpenFile(failing(file, budget), keys, "/f", false)) {
                assertThatThrownBy(() -> f.append(ByteBuffer.wrap(new byte[40_000]))).hasMessageContaining("No space left");
            }
            assertThat(java.nio.file.Files.size(file)).isEqualTo(oldLength);
            try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
                ByteBuffer back = ByteBuffer.allocate(old.length);
                f.read(back, 0);
                assertThat(Arrays.equals(back.array(), old)).as("content intact, budget %d", budget).isTrue();
            }
        }
    }

    /**
     * A crash after any single write must not leave a new header alone over nothing (a 48-byte file)
     * or over units of the old key: the header goes out in the same write as the first units.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aNewFileKeyIsStoredInOneWriteWithTheFirstUnits(boolean authenticated) throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        Path file = tmp.resolve("first.c9r");
        for (int size : new int[] {1, 15, 16, 4096, 100_000, 300_000}) {
            java.nio.file.Files.deleteIfExists(file);
            SpaceLimitedChannel ch = (SpaceLimitedChannel) failing(file, Integer.MAX_VALUE);
            try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
                f.write(ByteBuffer.wrap(new byte[size]), 0);
            }
            assertThat(ch.writes.get(0)[0]).as("first write's position, size %d", size).isZero();
            long firstUnits = Math.min(keys.layout().ciphertextLength(size), keys.layout().storedUnitOffset(32));
            assertThat(ch.writes.get(0)[1]).as("first write's length, size %d", size).isEqualTo(firstUnits);
        }
    }

    /**
     * On a real full disk (tmpfs) a write that only grows the partial last unit extends the ciphertext
     * while it rewrites that unit in place: the kernel writes the first part (over the old unit's
     * bytes) and then fails. The old unit's stored bytes must be put back, not only the length cut.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aWriteGrowingThePartialLastUnitOnAFullDiskKeepsItsOldBytes(boolean authenticated) throws Exception {
        growThePartialLastUnitOnAFullDisk(authenticated, f -> f.write(ByteBuffer.wrap(filled(3950, 'n')), 4196));
    }

    /** As above, for a truncate that makes the file longer (zeros appended to the partial last unit). */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aTruncateGrowingThePartialLastUnitOnAFullDiskKeepsItsOldBytes(boolean authenticated) throws Exception {
        growThePartialLastUnitOnAFullDisk(authenticated, f -> f.setSize(4196 + 3950));
    }

    private void growThePartialLastUnitOnAFullDisk(boolean authenticated, FileChange change) throws Exception {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        byte[] old = filled(4096 + 100, 'o'); // the ciphertext takes two pages; unit 1 grown to 4050 bytes needs a third
        try (TmpfsMount small = TmpfsMount.mount(tmp.resolve("small"), 8)) {
            Path file = small.dir().resolve("f.c9r");
            try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE), keys, "/f", false)) {
                f.write(ByteBuffer.wrap(old), 0);
                small.fill("ballast.bin");
                assertThatThrownBy(() -> change.apply(f)).hasMessageContaining("No space left");
                assertThat(f.size()).isEqualTo(old.length);
                assertThat(readAll(f)).isEqualTo(old);
            }
            try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
                assertThat(f.size()).isEqualTo(old.length);
                assertThat(readAll(f)).isEqualTo(old);
            }
        }
    }

    /**
     * A copy-on-write store needs new room for every byte overwritten in place: an overwrite inside
     * the file that runs out of it midway must leave the rest of its unit as it was.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aFailedOverwriteOnACopyOnWriteStoreLeavesItsUnitsAsTheyWere(boolean authenticated) throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        Path file = tmp.resolve("f.c9r");
        byte[] old = filled(3 * 4096, 'o');
        SpaceLimitedChannel ch = (SpaceLimitedChannel) failing(file, Integer.MAX_VALUE);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(old), 0);
            ch.setBudget(950); // unit 1 is overwritten up to the middle of the new bytes, then the store is full
            ch.setBudgetAfterFailure(2 * 4096);
            assertThatThrownBy(() -> f.write(ByteBuffer.wrap(filled(100, 'n')), 5000)).hasMessageContaining("No space left");
            assertThat(readAll(f)).isEqualTo(old);
        }
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
            assertThat(readAll(f)).isEqualTo(old);
        }
    }

    /**
     * The old last unit re-tagged in place (read back: the file was opened again, so no copy of it is
     * kept) on a copy-on-write store that runs out of room midway: its old bytes must come back.
     */
    @org.junit.jupiter.api.Test
    void aFailedReTagOnACopyOnWriteStoreLeavesTheOldLastUnitAsItWas() throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), true);
        Path file = tmp.resolve("f.c9r");
        byte[] old = filled(4096, 'o');
        try (OpenFile f = new OpenFile(failing(file, Integer.MAX_VALUE), keys, "/f", false)) {
            f.write(ByteBuffer.wrap(old), 0);
        }
        SpaceLimitedChannel ch = (SpaceLimitedChannel) failing(file, Integer.MAX_VALUE);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            // The new unit 1, then the re-tag of unit 0 up to the middle of its tag (the rest is unchanged).
            ch.setBudget(keys.layout().storedUnitLength(1, 4196) + keys.layout().storedUnitLength(0, 4196) - 8);
            ch.setBudgetAfterFailure(2 * 4096);
            assertThatThrownBy(() -> f.write(ByteBuffer.wrap(filled(100, 'n')), 4096)).hasMessageContaining("No space left");
            assertThat(f.size()).isEqualTo(old.length);
            assertThat(readAll(f)).isEqualTo(old);
        }
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
            assertThat(readAll(f)).isEqualTo(old);
        }
    }

    /**
     * An append re-tags the old last unit from the copy it kept: on a copy-on-write store that runs
     * out of room in the middle of that unit's tag, the old tag must come back with the cut.
     */
    @org.junit.jupiter.api.Test
    void aFailedReTagOfAnAppendOnACopyOnWriteStoreLeavesTheOldLastUnitAsItWas() throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), true);
        Path file = tmp.resolve("f.c9r");
        byte[] old = filled(4096, 'o');
        SpaceLimitedChannel ch = (SpaceLimitedChannel) failing(file, Integer.MAX_VALUE);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(old), 0);
            ch.setBudget(keys.layout().storedUnitLength(1, 4196) + keys.layout().storedUnitLength(0, 4196) - 8);
            ch.setBudgetAfterFailure(2 * 4096);
            assertThatThrownBy(() -> f.write(ByteBuffer.wrap(filled(100, 'n')), 4096)).hasMessageContaining("No space left");
            assertThat(f.size()).isEqualTo(old.length);
            assertThat(readAll(f)).isEqualTo(old);
        }
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
            assertThat(readAll(f)).isEqualTo(old);
        }
    }

    /**
     * An overwrite of a range far larger than one batch, in one call, on a copy-on-write store that
     * runs out of room in the middle of the sixth in-place batch: that batch is put back, the five
     * before it stay written (whole new units), the size stays, and the file reads without an
     * authentication error. The copy kept to put back is never larger than one batch.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aLargeOverwriteThatFailsInAMiddleBatchLeavesWholeUnitsAndTheSize(boolean authenticated) throws IOException {
        SectorLayout layout = layout(authenticated);
        int size = 40 << 20;
        long batchBytes = (long) OpenFile.BATCH * layout.storedUnitSize();
        overwriteOnACopyOnWriteStore(authenticated, size, size, 5 * batchBytes + batchBytes / 2, 5 * OpenFile.BATCH);
    }

    /** As above, for an overwrite that also adds units (written first) and grows the partial old last unit. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aLargeGrowingOverwriteThatFailsInAMiddleBatchLeavesWholeUnitsAndTheSize(boolean authenticated) throws IOException {
        SectorLayout layout = layout(authenticated);
        int oldSize = (40 << 20) - 20_380; // 10236 units, the last one partial
        int newSize = (40 << 20) + 5000;
        long oldLast = layout.unitCount(oldSize) - 1;
        long newUnits = layout.ciphertextLength(newSize) - layout.storedUnitOffset(oldLast + 1);
        long batchBytes = (long) OpenFile.BATCH * layout.storedUnitSize();
        overwriteOnACopyOnWriteStore(authenticated, oldSize, newSize, newUnits + 5 * batchBytes + batchBytes / 2,
                5 * OpenFile.BATCH);
    }

    /**
     * The old last unit is the highest unit rewritten in place, so it is in the last in-place batch:
     * a failure in the middle of it puts it back as it was (tagged as the last, from the copy kept),
     * after all earlier batches were written whole.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aLargeGrowingOverwriteThatFailsInTheOldLastUnitPutsItBack(boolean authenticated) throws IOException {
        SectorLayout layout = layout(authenticated);
        int oldSize = (40 << 20) - 20_380;
        int newSize = (40 << 20) + 5000;
        long oldLast = layout.unitCount(oldSize) - 1;
        long newUnits = layout.ciphertextLength(newSize) - layout.storedUnitOffset(oldLast + 1);
        long beforeOldLast = layout.storedUnitOffset(oldLast) - layout.storedUnitOffset(0);
        overwriteOnACopyOnWriteStore(authenticated, oldSize, newSize, newUnits + beforeOldLast + 50,
                (int) (oldLast / OpenFile.BATCH * OpenFile.BATCH));
    }

    /** A large overwrite that succeeds keeps at most one batch of stored units to put back at any time. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aLargeOverwriteKeepsAtMostOneBatchToPutBack(boolean authenticated) throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        SectorLayout layout = keys.layout();
        Path file = tmp.resolve("f.c9r");
        byte[] old = filled((40 << 20) - 20_380, 'o');
        byte[] fresh = filled((40 << 20) + 5000, 'n');
        try (OpenFile f = new OpenFile(failing(file, Integer.MAX_VALUE), keys, "/f", false)) {
            f.write(ByteBuffer.wrap(old), 0);
            f.write(ByteBuffer.wrap(fresh), 0);
            assertThat(f.largestInPlaceBackup()).isPositive()
                    .isLessThanOrEqualTo(OpenFile.BATCH * layout.storedUnitSize());
        }
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
            assertThat(Arrays.equals(readAll(f), fresh)).isTrue();
        }
    }

    /**
     * A shrinking truncate rewrites (or re-tags) the new last unit in place and then cuts the
     * ciphertext. If the cut fails (EIO), the file must still be the old one: before, the new last
     * unit, shorter than the old unit in its place (or under a new key, SIV_XTS below 16 bytes), was
     * left inside the old length, so that unit failed authentication (SIV_XTS: read as garbage) and
     * the bytes the truncate should have kept were lost with the old ones. Sizes: a cut inside a unit,
     * at a unit boundary (a re-tag), one that merges the new last unit with 10 bytes of the next
     * (its new extent reaches into the old next unit), and one below 16 bytes.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aShrinkingTruncateWhoseCutFailsLeavesTheFileAsItWas(boolean authenticated) throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        long[][] cases = {{3 * 4096 + 100, 5000}, {3 * 4096 + 100, 8192}, {2 * 4096 + 100, 2 * 4096 + 10},
                {3 * 4096 + 100, 10}};
        for (long[] c : cases) {
            Path file = tmp.resolve("cut-" + c[0] + "-" + c[1] + ".c9r");
            byte[] old = new byte[(int) c[0]];
            new Random(c[1]).nextBytes(old);
            SpaceLimitedChannel ch = (SpaceLimitedChannel) failing(file, Integer.MAX_VALUE);
            try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
                f.write(ByteBuffer.wrap(old), 0);
                ch.setCutsFail(true);
                assertThatThrownBy(() -> f.setSize(c[1])).as("%d -> %d", c[0], c[1])
                        .hasMessageContaining("Input/output error");
                assertThat(f.size()).isEqualTo(old.length);
                assertThat(readAll(f)).as("%d -> %d", c[0], c[1]).isEqualTo(old);
                ch.setCutsFail(false);
            }
            try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
                assertThat(f.size()).isEqualTo(old.length);
                assertThat(readAll(f)).as("%d -> %d, opened again", c[0], c[1]).isEqualTo(old);
            }
        }
    }

    /**
     * A shrink that merges the new last unit with the 10 bytes after its sector rewrites it 10 bytes
     * longer than the old unit in its place, over the start of the old next unit. On a copy-on-write
     * store that runs out of room in those 10 bytes, the old next unit's start must come back too.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aShrinkWhoseMergedLastUnitRunsIntoTheNextUnitOnAFullStoreLeavesTheFileAsItWas(boolean authenticated)
            throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        SectorLayout layout = keys.layout();
        Path file = tmp.resolve("f.c9r");
        byte[] old = new byte[2 * 4096 + 100];
        new Random(5).nextBytes(old);
        SpaceLimitedChannel ch = (SpaceLimitedChannel) failing(file, Integer.MAX_VALUE);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(old), 0);
            ch.setBudget(layout.storedUnitLength(1, 2 * 4096 + 100) + 5); // 5 of the 10 bytes past the old unit 1
            ch.setBudgetAfterFailure(4 * 4096);
            assertThatThrownBy(() -> f.setSize(2 * 4096 + 10)).hasMessageContaining("No space left");
            assertThat(f.size()).isEqualTo(old.length);
            assertThat(readAll(f)).isEqualTo(old);
        }
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
            assertThat(f.size()).isEqualTo(old.length);
            assertThat(readAll(f)).isEqualTo(old);
        }
    }

    /**
     * A gathering append of a record (several buffers) that runs out of room leaves nothing of the
     * record, as any failed write: a log's next record must not follow half of this one.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aGatheringAppendThatRunsOutOfRoomLeavesNothingOfItsRecord(boolean authenticated) throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        Path file = tmp.resolve("log.c9r");
        byte[] old = filled(5000, 'o');
        SpaceLimitedChannel ch = (SpaceLimitedChannel) failing(file, Integer.MAX_VALUE);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(old), 0);
            ch.setGrowthOnly(true);
            ch.setBudget(6000); // the record's first 5000 bytes fit, its next 5000 do not
            ByteBuffer[] record = {ByteBuffer.wrap(filled(5000, 'a')), ByteBuffer.wrap(filled(5000, 'b'))};
            assertThatThrownBy(() -> f.append(record, 0, 2, Long.MAX_VALUE)).hasMessageContaining("No space left");
            assertThat(f.size()).isEqualTo(old.length);
            assertThat(readAll(f)).isEqualTo(old);
        }
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
            assertThat(readAll(f)).isEqualTo(old);
        }
    }

    /**
     * A file of 4096 + 10 bytes has a merged last unit ({@code S + 10}) whose last 10 stored bytes lie
     * where unit 1 starts. A change that adds units (an append, a gathering one, a growing truncate)
     * writes them first, over those 10 bytes, and rewrites the old last unit after. If it fails in
     * between, on a full disk (the bytes inside the file land, the growth fails) or on a
     * copy-on-write store at the rewrite, the old last unit must come back whole: before, nothing
     * kept those 10 bytes (or the in-place backup, reading the unit back, kept them overwritten), so
     * it failed authentication (SIV_XTS: garbage from byte 4080). With its copy at hand (the unit
     * written by this object) and opened again (the bytes read back).
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({
        "true, APPEND, FULL", "true, GATHERING, FULL", "true, GROW, FULL", "true, APPEND, COPY_ON_WRITE",
        "false, APPEND, FULL", "false, GATHERING, FULL", "false, GROW, FULL", "false, APPEND, COPY_ON_WRITE"})
    void aChangeAddingUnitsAfterAMergedLastUnitThatFailsLeavesThatUnitWhole(boolean authenticated, String change,
            String store) throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        SectorLayout layout = keys.layout();
        byte[] old = new byte[4096 + 10];
        new Random(7).nextBytes(old);
        int added = 5000;
        long newUnitsLength = layout.ciphertextLength(old.length + added) - layout.storedUnitOffset(1);
        FileChange adding = switch (change) {
            case "APPEND" -> f -> f.append(ByteBuffer.wrap(new byte[added]));
            case "GATHERING" -> f -> f.append(new ByteBuffer[] {ByteBuffer.wrap(new byte[3000]),
                    ByteBuffer.wrap(new byte[added - 3000])}, 0, 2, Long.MAX_VALUE);
            default -> f -> f.setSize(old.length + added);
        };
        for (boolean openedAgain : new boolean[] {false, true}) {
            Path file = tmp.resolve("merged-" + openedAgain + ".c9r");
            SpaceLimitedChannel ch = (SpaceLimitedChannel) failing(file, Integer.MAX_VALUE);
            OpenFile f = new OpenFile(ch, keys, "/f", false);
            f.write(ByteBuffer.wrap(old), 0);
            if (openedAgain) {
                f.close();
                ch = (SpaceLimitedChannel) failing(file, Integer.MAX_VALUE);
                f = new OpenFile(ch, keys, "/f", false);
            }
            if (store.equals("FULL")) {
                ch.setGrowthOnly(true);
                ch.setBudget(0);
            } else {
                ch.setBudget(newUnitsLength); // the new units fit, the rewrite of unit 0 does not
                ch.setBudgetAfterFailure(Integer.MAX_VALUE);
            }
            OpenFile changed = f;
            assertThatThrownBy(() -> adding.apply(changed)).as("opened again: %s", openedAgain)
                    .hasMessageContaining("No space left");
            assertThat(f.size()).isEqualTo(old.length);
            assertThat(firstDifference(readAll(f), old)).as("opened again: %s", openedAgain).isEqualTo(-1);
            f.close();
            try (OpenFile g = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
                assertThat(g.size()).isEqualTo(old.length);
                assertThat(firstDifference(readAll(g), old)).as("opened again: %s, reopened", openedAgain).isEqualTo(-1);
            }
        }
    }

    /**
     * A write that fails on a full disk is undone by a cut, and that cut fails too (EIO): stored bytes
     * remain past the file's length. The next write, shorter, must still end the ciphertext at its
     * own length: before, an empty file's first write (which does not cut on its normal path) and an
     * append of new units left that stale tail, so the file came back with a wrong size and garbage.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"true, 0", "false, 0", "true, 8192", "false, 8192"})
    void aWriteAfterAnUndoWhoseCutFailedStillEndsTheFileAtItsLength(boolean authenticated, int oldSize)
            throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        Path file = tmp.resolve("f.c9r");
        byte[] old = filled(oldSize, 'o');
        byte[] small = filled(100, 's');
        byte[] expected = Arrays.copyOf(old, oldSize + small.length);
        System.arraycopy(small, 0, expected, oldSize, small.length);
        SpaceLimitedChannel ch = (SpaceLimitedChannel) failing(file, Integer.MAX_VALUE);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(old), 0);
            ch.setBudget(20_000);
            ch.setCutsFail(true);
            assertThatThrownBy(() -> f.write(ByteBuffer.wrap(new byte[30_000]), oldSize))
                    .hasMessageContaining("No space left");
            assertThat(f.size()).isEqualTo(oldSize);
            ch.setCutsFail(false);
            ch.setBudget(Integer.MAX_VALUE);
            f.write(ByteBuffer.wrap(small), oldSize);
            assertThat(f.size()).isEqualTo(expected.length);
        }
        assertThat(java.nio.file.Files.size(file)).isEqualTo(keys.layout().ciphertextLength(expected.length));
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
            assertThat(f.size()).isEqualTo(expected.length);
            assertThat(readAll(f)).isEqualTo(expected);
        }
    }

    /**
     * As above, the failing write tried {@code attempts} times (the later ones fail at once, the disk
     * still full, and their cut too): the bytes left past the file's length are its own, so the check
     * an open makes before it joins must not take them for another program's rewrite, and the next
     * write must succeed. Before, it did for an empty file (only a ciphertext holding no unit passed),
     * and for any file (the stored length had to be the file's exactly); with a second attempt, a
     * first write made a new header while the leftovers still started with the one before.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"true, 0, 1", "false, 0, 1", "true, 0, 2", "false, 0, 2",
            "true, 8192, 1", "false, 8192, 2"})
    void leftoversOfAnUndoWhoseCutFailedAreNotARewrite(boolean authenticated, int oldSize, int attempts)
            throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        Path file = tmp.resolve("f.c9r");
        byte[] old = filled(oldSize, 'o');
        byte[] small = filled(100, 's');
        byte[] expected = Arrays.copyOf(old, oldSize + small.length);
        System.arraycopy(small, 0, expected, oldSize, small.length);
        SpaceLimitedChannel ch = (SpaceLimitedChannel) failing(file, Integer.MAX_VALUE);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(old), 0);
            ch.setBudget(20_000);
            ch.setCutsFail(true);
            for (int i = 0; i < attempts; i++) {
                assertThatThrownBy(() -> f.write(ByteBuffer.wrap(new byte[30_000]), oldSize)).isInstanceOf(IOException.class);
            }
            assertThat(java.nio.file.Files.size(file)).as("leftovers").isGreaterThan(keys.layout().ciphertextLength(oldSize));
            ch.setCutsFail(false);
            ch.setBudget(Integer.MAX_VALUE);
            assertThat(f.holdsStoredHeader()).isTrue();
            f.write(ByteBuffer.wrap(small), oldSize);
            assertThat(f.holdsStoredHeader()).isTrue();
        }
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
            assertThat(readAll(f)).isEqualTo(expected);
        }
    }

    /**
     * Writes {@code oldSize} bytes of 'o', then overwrites from 0 with {@code newSize} bytes of 'n'
     * in one call on a copy-on-write store with room for {@code budget} bytes; the file must then
     * hold its first {@code newUnits} units new and the rest old, at the old size, read by this
     * object and after opening it again.
     */
    private void overwriteOnACopyOnWriteStore(boolean authenticated, int oldSize, int newSize, long budget, int newUnits)
            throws IOException {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
        SectorLayout layout = keys.layout();
        Path file = tmp.resolve("f.c9r");
        byte[] expected = filled(oldSize, 'o');
        Arrays.fill(expected, 0, newUnits * SectorLayout.SECTOR, (byte) 'n');
        SpaceLimitedChannel ch = (SpaceLimitedChannel) failing(file, Integer.MAX_VALUE);
        try (OpenFile f = new OpenFile(ch, keys, "/f", false)) {
            f.write(ByteBuffer.wrap(filled(oldSize, 'o')), 0);
            f.force(true);
            ch.setBudget(budget);
            ch.setBudgetAfterFailure(2L * OpenFile.BATCH * layout.storedUnitSize());
            assertThatThrownBy(() -> f.write(ByteBuffer.wrap(filled(newSize, 'n')), 0)).hasMessageContaining("No space left");
            assertThat(f.size()).isEqualTo(oldSize);
            assertThat(firstDifference(readAll(f), expected)).isEqualTo(-1);
            assertThat(f.largestInPlaceBackup()).isPositive()
                    .isLessThanOrEqualTo(OpenFile.BATCH * layout.storedUnitSize());
        }
        assertThat(java.nio.file.Files.size(file)).isEqualTo(layout.ciphertextLength(oldSize));
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
            assertThat(f.size()).isEqualTo(oldSize);
            assertThat(firstDifference(readAll(f), expected)).isEqualTo(-1);
        }
    }

    private static SectorLayout layout(boolean authenticated) {
        return new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated).layout();
    }

    /** Index of the first byte where the two differ (-1: none), so a failure names it instead of printing 40 MiB. */
    private static long firstDifference(byte[] a, byte[] b) {
        return Arrays.mismatch(a, b);
    }

    /** A change of an open file that may fail. */
    @FunctionalInterface
    private interface FileChange {
        void apply(OpenFile f) throws IOException;
    }

    private static byte[] filled(int length, char c) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) c);
        return bytes;
    }

    private static byte[] readAll(OpenFile f) throws IOException {
        ByteBuffer back = ByteBuffer.allocate((int) f.size());
        f.read(back, 0);
        return back.array();
    }

    private static FileChannel failing(Path file, int budget) throws IOException {
        return new SpaceLimitedChannel(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE), budget);
    }
}
