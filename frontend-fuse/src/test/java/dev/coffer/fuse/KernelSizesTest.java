package dev.coffer.fuse;

import static dev.coffer.fuse.KernelSizes.Verdict.CURRENT;
import static dev.coffer.fuse.KernelSizes.Verdict.SHRUNK;
import static dev.coffer.fuse.KernelSizes.Verdict.STALE;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class KernelSizesTest {
    private long now = 1_000;
    private final KernelSizes sizes = new KernelSizes(10, () -> now, 4);

    private void seconds(double s) {
        now += (long) (s * TimeUnit.SECONDS.toNanos(1));
    }

    @Test
    void anOpenIsCurrentOnlyWhereEverySizeTheKernelMayHoldIsTheFiles() {
        assertThat(sizes.verdict("/a", 10)).as("never given a size").isEqualTo(CURRENT);
        sizes.noted("/a", 10);
        assertThat(sizes.verdict("/a", 10)).isEqualTo(CURRENT);
        assertThat(sizes.verdict("/a", 11)).as("the kernel holds a smaller size").isEqualTo(STALE);
        assertThat(sizes.verdict("/a", 9)).as("the kernel holds a larger size").isEqualTo(SHRUNK);
        assertThat(sizes.verdict("/b", 11)).as("another name").isEqualTo(CURRENT);
    }

    /** Two answers in flight: the kernel keeps whichever it takes, so both count until they expire. */
    @Test
    void everySizeGivenWithinTheCacheTimeCountsNotOnlyTheLast() {
        sizes.noted("/a", 5);
        sizes.noted("/a", 100_000);
        assertThat(sizes.verdict("/a", 100_000)).isEqualTo(STALE);
        sizes.noted("/a", 100_000);
        assertThat(sizes.verdict("/a", 100_000)).as("5 is still within the cache time").isEqualTo(STALE);
        seconds(11.5);
        sizes.noted("/a", 100_000);
        assertThat(sizes.verdict("/a", 100_000)).isEqualTo(CURRENT);
    }

    @Test
    void aNoteCountsForTheCacheTimeAndAMarginOnly() {
        sizes.noted("/a", 10);
        seconds(10.5);
        assertThat(sizes.verdict("/a", 11)).as("within the margin").isEqualTo(STALE);
        seconds(1);
        assertThat(sizes.verdict("/a", 11)).as("the kernel's copy expired: it asks again").isEqualTo(CURRENT);
    }

    @Test
    void moreSizesThanKeptMakeTheNameStaleForTheCacheTimeAndShrunkBelowTheLargestLost() {
        for (long size = 1; size <= 6; size++) {
            sizes.noted("/log", size * 100); // a file growing while it is stat'ed
        }
        assertThat(sizes.verdict("/log", 600)).as("sizes were lost").isEqualTo(STALE);
        assertThat(sizes.verdict("/log", 150)).as("below a lost size").isEqualTo(SHRUNK);
        seconds(11.5);
        assertThat(sizes.verdict("/log", 600)).isEqualTo(CURRENT);
    }

    @Test
    void pastItsCapacityEveryNameWithoutANoteIsStaleForTheCacheTime() {
        for (int i = 0; i < 5; i++) {
            sizes.noted("/f" + i, i);
        }
        assertThat(sizes.verdict("/f0", 0)).as("a lost note: the kernel may hold any size").isEqualTo(STALE);
        assertThat(sizes.verdict("/never", 3)).isEqualTo(STALE);
        sizes.noted("/f0", 0);
        assertThat(sizes.verdict("/f0", 0)).as("noted again").isEqualTo(CURRENT);
        seconds(11.5);
        assertThat(sizes.verdict("/never", 3)).as("every copy the kernel had has expired").isEqualTo(CURRENT);
    }

    @Test
    void expiredNotesAreSweptSoTheyDoNotFillTheTable() {
        for (int i = 0; i < 4; i++) {
            sizes.noted("/old" + i, i);
        }
        seconds(12);
        sizes.noted("/new0", 0); // sweeps the expired four
        sizes.noted("/new1", 1);
        assertThat(sizes.verdict("/elsewhere", 1)).as("no note was lost").isEqualTo(CURRENT);
    }

    @Test
    void aRenameMovesTheSizesToTheNewName() {
        sizes.noted("/tmp~", 6);
        sizes.noted("/doc", 50);
        sizes.moved("/tmp~", "/doc");
        assertThat(sizes.verdict("/doc", 6)).isEqualTo(CURRENT);
        assertThat(sizes.verdict("/doc", 50)).as("the kernel's entry for /doc has the renamed file's size").isEqualTo(STALE);
        assertThat(sizes.verdict("/tmp~", 7)).as("no note, none lost").isEqualTo(CURRENT);
    }

    @Test
    void aRenameOfANameWithoutANoteLeavesTheKernelsSizesUnknownForTheCacheTime() {
        sizes.noted("/dir/g", 5);
        sizes.moved("/dir", "/dir2"); // a folder: the kernel keeps /dir2/f's size from /dir/f, noted in flight
        assertThat(sizes.verdict("/dir2/f", 100)).isEqualTo(STALE);
        seconds(11.5);
        assertThat(sizes.verdict("/dir2/f", 100)).isEqualTo(CURRENT);
    }

    /** The kernel keeps a renamed folder's files' nodes, and their sizes, under the new names. */
    @Test
    void aFoldersRenameMovesItsFilesSizes() {
        sizes.noted("/dir/f", 500);
        sizes.noted("/dir/sub/g", 7);
        sizes.noted("/dirx/f", 500);
        sizes.moved("/dir", "/new");
        assertThat(sizes.verdict("/new/f", 100)).as("shorter than the moved size").isEqualTo(SHRUNK);
        assertThat(sizes.verdict("/new/sub/g", 7)).isEqualTo(CURRENT);
        assertThat(sizes.verdict("/new/sub/g", 6)).isEqualTo(SHRUNK);
        assertThat(sizes.verdict("/dirx/f", 100)).as("another folder whose name starts alike").isEqualTo(SHRUNK);
        seconds(11.5);
        assertThat(sizes.verdict("/dir/f", 100)).as("nothing left under the old name").isEqualTo(CURRENT);
    }

    /** Past the scan's limit a folder's rename moves nothing: its files are stale for the cache time, not shrunk. */
    @Test
    void withManyNotesAFoldersRenameLeavesItsFilesStaleOnly() {
        KernelSizes many = new KernelSizes(10, () -> now, KernelSizes.CAPACITY);
        for (int i = 0; i <= KernelSizes.MOVED_SCAN_LIMIT; i++) {
            many.noted("/other/" + i, 1);
        }
        many.noted("/dir/f", 500);
        many.moved("/dir", "/new");
        assertThat(many.verdict("/new/f", 100)).isEqualTo(STALE);
    }

    @Test
    void anUnlinkedNameIsForgotten() {
        sizes.noted("/a", 10);
        sizes.forget("/a");
        assertThat(sizes.verdict("/a", 11)).isEqualTo(CURRENT);
    }

    @Test
    void theCacheTimeFollowsTheMountsTimeouts() {
        sizes.cacheSeconds(60);
        sizes.noted("/a", 10);
        seconds(50);
        assertThat(sizes.verdict("/a", 11)).isEqualTo(STALE);
    }
}
