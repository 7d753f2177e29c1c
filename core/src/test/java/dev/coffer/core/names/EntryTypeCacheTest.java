package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;

/** When a remembered payload type may be reused: same folder, same time, that time settled when statted, and not for long. */
class EntryTypeCacheTest {
    private static final Path ENTRY = Path.of("/vault/d/AB/CDEF/name.c9r");
    private static final long NOW = 1_800_000_000_000L;

    private long now = NOW;
    private final EntryTypeCache cache = new EntryTypeCache(() -> now);

    private record Attrs(Object fileKey, long modifiedMillis) implements BasicFileAttributes {
        @Override public FileTime lastModifiedTime() { return FileTime.fromMillis(modifiedMillis); }
        @Override public FileTime lastAccessTime() { return lastModifiedTime(); }
        @Override public FileTime creationTime() { return lastModifiedTime(); }
        @Override public boolean isRegularFile() { return false; }
        @Override public boolean isDirectory() { return true; }
        @Override public boolean isSymbolicLink() { return false; }
        @Override public boolean isOther() { return false; }
        @Override public long size() { return 4096; }
    }

    @Test
    void aSettledUnchangedFolderIsAnsweredFromMemory() {
        Attrs settled = new Attrs("inode 7", NOW - EntryTypeCache.SETTLED_MILLIS);
        cache.put(ENTRY, settled, NOW, EntryType.DIRECTORY);
        assertThat(cache.get(ENTRY, new Attrs("inode 7", NOW - EntryTypeCache.SETTLED_MILLIS))).isEqualTo(EntryType.DIRECTORY);
    }

    @Test
    void aChangedTimeOrAnotherFolderIsNot() {
        cache.put(ENTRY, new Attrs("inode 7", NOW - 60_000), NOW, EntryType.SYMLINK);
        assertThat(cache.get(ENTRY, new Attrs("inode 7", NOW - 59_999))).isNull();
        assertThat(cache.get(ENTRY, new Attrs("inode 8", NOW - 60_000))).isNull();
        assertThat(cache.get(Path.of("/vault/d/AB/CDEF/other.c9r"), new Attrs("inode 7", NOW - 60_000))).isNull();
    }

    @Test
    void aFolderChangedWithinTheLastTicksIsNotKept() {
        // A second change within the time stamp's tick would leave its time as it is.
        cache.put(ENTRY, new Attrs("inode 7", NOW - EntryTypeCache.SETTLED_MILLIS + 1), NOW, EntryType.DIRECTORY);
        assertThat(cache.get(ENTRY, new Attrs("inode 7", NOW - EntryTypeCache.SETTLED_MILLIS + 1))).isNull();
    }

    @Test
    void anUnsettledProbeDropsWhatWasKept() {
        cache.put(ENTRY, new Attrs("inode 7", NOW - 60_000), NOW, EntryType.DIRECTORY);
        cache.put(ENTRY, new Attrs("inode 7", NOW), NOW, EntryType.SYMLINK);
        assertThat(cache.get(ENTRY, new Attrs("inode 7", NOW - 60_000))).isNull();
    }

    @Test
    void settledIsJudgedByTheTimeOfTheStatNotOfThePut() {
        // A stat at NOW - 1 s of a folder changed at NOW - 3.5 s: 2.5 s apart, not settled then.
        Attrs attrs = new Attrs("inode 7", NOW - 3_500);
        assertThat(cache.worthKeeping(attrs, NOW - 1_000)).isFalse();
        cache.put(ENTRY, attrs, NOW - 1_000, EntryType.DIRECTORY);
        assertThat(cache.get(ENTRY, attrs)).isNull();
    }

    @Test
    void anAnswerIsReusedForAMinuteAtMost() {
        // Sync tools set folder times back: an unchanged look is trusted only for a while.
        Attrs attrs = new Attrs("inode 7", NOW - 3_600_000);
        cache.put(ENTRY, attrs, NOW, EntryType.DIRECTORY);
        now = NOW + EntryTypeCache.MAX_AGE_MILLIS;
        assertThat(cache.get(ENTRY, attrs)).isEqualTo(EntryType.DIRECTORY);
        now = NOW + EntryTypeCache.MAX_AGE_MILLIS + 1;
        assertThat(cache.get(ENTRY, attrs)).isNull();
    }

    @Test
    void withoutAFileKeyNothingIsKept() {
        cache.put(ENTRY, new Attrs(null, NOW - 60_000), NOW, EntryType.DIRECTORY);
        assertThat(cache.get(ENTRY, new Attrs(null, NOW - 60_000))).isNull();
    }

    @Test
    void aFullCacheStartsOver() {
        for (int i = 0; i < EntryTypeCache.MAX_ENTRIES; i++) {
            cache.put(Path.of("/vault/e" + i), new Attrs("inode " + i, NOW - 60_000), NOW, EntryType.DIRECTORY);
        }
        cache.put(ENTRY, new Attrs("inode 7", NOW - 60_000), NOW, EntryType.DIRECTORY);
        assertThat(cache.get(Path.of("/vault/e0"), new Attrs("inode 0", NOW - 60_000))).isNull();
        assertThat(cache.get(ENTRY, new Attrs("inode 7", NOW - 60_000))).isEqualTo(EntryType.DIRECTORY);
    }
}
