package dev.coffer.fuse;

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
    void aNameMayBeStaleOnlyWhereTheKernelWasGivenAnotherSize() {
        assertThat(sizes.mayBeStale("/a", 10)).as("never given a size").isFalse();
        sizes.noted("/a", 10);
        assertThat(sizes.mayBeStale("/a", 10)).isFalse();
        assertThat(sizes.mayBeStale("/a", 11)).isTrue();
        sizes.noted("/a", 11);
        assertThat(sizes.mayBeStale("/a", 11)).as("the kernel's next answer").isFalse();
        assertThat(sizes.mayBeStale("/b", 11)).as("another name").isFalse();
    }

    @Test
    void aNoteCountsForTheCacheTimeAndAMarginOnly() {
        sizes.noted("/a", 10);
        seconds(10.5);
        assertThat(sizes.mayBeStale("/a", 11)).as("within the margin").isTrue();
        seconds(1);
        assertThat(sizes.mayBeStale("/a", 11)).as("the kernel's copy expired: it asks again").isFalse();
    }

    @Test
    void pastItsCapacityEveryNameWithoutANoteMayBeStaleForTheCacheTime() {
        for (int i = 0; i < 5; i++) {
            sizes.noted("/f" + i, i);
        }
        assertThat(sizes.mayBeStale("/f0", 0)).as("a lost note: the kernel may hold any size").isTrue();
        assertThat(sizes.mayBeStale("/never", 3)).isTrue();
        sizes.noted("/f0", 0);
        assertThat(sizes.mayBeStale("/f0", 0)).as("noted again").isFalse();
        seconds(11.5);
        assertThat(sizes.mayBeStale("/never", 3)).as("every copy the kernel had has expired").isFalse();
    }

    @Test
    void expiredNotesAreSweptSoTheyDoNotFillTheTable() {
        for (int i = 0; i < 4; i++) {
            sizes.noted("/old" + i, i);
        }
        seconds(12);
        sizes.noted("/new0", 0); // sweeps the expired four
        sizes.noted("/new1", 1);
        assertThat(sizes.mayBeStale("/elsewhere", 1)).as("no note was lost").isFalse();
    }

    @Test
    void aRenameMovesTheSizeToTheNewName() {
        sizes.noted("/tmp~", 6);
        sizes.noted("/doc", 50);
        sizes.moved("/tmp~", "/doc");
        assertThat(sizes.mayBeStale("/doc", 6)).isFalse();
        assertThat(sizes.mayBeStale("/doc", 50)).as("the kernel's entry for /doc has the renamed file's size").isTrue();
        assertThat(sizes.mayBeStale("/tmp~", 7)).as("no note, none lost").isFalse();
    }

    @Test
    void aRenameOfANameWithoutANoteLeavesTheKernelsSizesUnknownForTheCacheTime() {
        sizes.noted("/dir/f", 5);
        sizes.moved("/dir", "/dir2"); // a folder: the kernel keeps /dir2/f's size from /dir/f
        assertThat(sizes.mayBeStale("/dir2/f", 100)).isTrue();
        seconds(11.5);
        assertThat(sizes.mayBeStale("/dir2/f", 100)).isFalse();
    }

    @Test
    void anUnlinkedNameIsForgotten() {
        sizes.noted("/a", 10);
        sizes.forget("/a");
        assertThat(sizes.mayBeStale("/a", 11)).isFalse();
    }

    @Test
    void theCacheTimeFollowsTheMountsAttributeTimeout() {
        sizes.cacheSeconds(60);
        sizes.noted("/a", 10);
        seconds(50);
        assertThat(sizes.mayBeStale("/a", 11)).isTrue();
    }
}
