package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A folder counts as missing names for one second after a miss there, except for the name last
 * found present since, and no other folder does.
 */
class RecentMissesTest {
    private static final long NOW = 1_800_000_000_000L;
    private final RecentMisses misses = new RecentMisses();

    @Test
    void aMissMakesTheNextLookupThereLikelyAMissForAWhile() {
        assertThat(misses.likelyIn("folder-a", "name", NOW)).isFalse();
        misses.missed("folder-a", NOW);
        assertThat(misses.likelyIn("folder-a", "name", NOW)).isTrue();
        assertThat(misses.likelyIn("folder-a", "name", NOW + RecentMisses.WINDOW_MILLIS - 1)).isTrue();
        assertThat(misses.likelyIn("folder-a", "name", NOW + RecentMisses.WINDOW_MILLIS)).isFalse();
        assertThat(misses.likelyIn("folder-a", "name", NOW - 1)).as("a clock set back").isFalse();
    }

    @Test
    void theNameFoundPresentIsStattedAtOnceUntilTheNextMiss() {
        misses.missed("folder-a", NOW);
        misses.present("folder-a", "created");
        assertThat(misses.likelyIn("folder-a", "created", NOW)).isFalse();
        assertThat(misses.likelyIn("folder-a", "next", NOW)).isTrue();
        misses.missed("folder-a", NOW + 1);
        assertThat(misses.likelyIn("folder-a", "created", NOW + 1)).isTrue();
    }

    @Test
    void aNameFoundPresentElsewhereChangesNothing() {
        misses.missed("folder-a", NOW);
        misses.present("folder-b", "name");
        assertThat(misses.likelyIn("folder-a", "name", NOW)).isTrue();
        assertThat(misses.likelyIn("folder-b", "other", NOW)).isFalse();
    }

    @Test
    void onlyTheFolderThatMissed() {
        misses.missed("folder-a", NOW);
        for (int i = 0; i < 1000; i++) {
            assertThat(misses.likelyIn("folder-" + i, "name", NOW)).isFalse(); // also those sharing folder-a's slot
        }
    }

    @Test
    void foldersSharingASlotTakeTurns() {
        String a = "folder-a";
        String b = null;
        for (int i = 0; b == null; i++) {
            if (sameSlot(a, "other-" + i)) {
                b = "other-" + i;
            }
        }
        misses.missed(b, NOW);
        misses.missed(a, NOW);
        assertThat(misses.likelyIn(a, "name", NOW)).isTrue();
        assertThat(misses.likelyIn(b, "name", NOW)).isFalse(); // the later note took the slot: a lost note, never a wrong one
    }

    @Test
    void lockingForgetsEverything() {
        misses.missed("folder-a", NOW);
        misses.clear();
        assertThat(misses.likelyIn("folder-a", "name", NOW)).isFalse();
    }

    private static boolean sameSlot(String x, String y) {
        RecentMisses probe = new RecentMisses();
        probe.missed(x, NOW);
        probe.missed(y, NOW);
        return !x.equals(y) && !probe.likelyIn(x, "name", NOW);
    }
}
