package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Lookups count as likely misses for one second after a miss anywhere in the vault, except for the
 * name last made or found present since, and until probes in a row keep finding their names present.
 */
class RecentMissesTest {
    private static final long NOW = 1_800_000_000_000L;
    private final RecentMisses misses = new RecentMisses();

    @Test
    void aMissMakesTheNextLookupLikelyAMissForAWhile() {
        assertThat(misses.likelyIn("folder-a", "name", NOW)).isFalse();
        misses.missed("folder-a", NOW);
        assertThat(misses.likelyIn("folder-a", "name", NOW)).isTrue();
        assertThat(misses.likelyIn("folder-a", "name", NOW + RecentMisses.WINDOW_MILLIS - 1)).isTrue();
        assertThat(misses.likelyIn("folder-a", "name", NOW + RecentMisses.WINDOW_MILLIS)).isFalse();
        assertThat(misses.likelyIn("folder-a", "name", NOW - 1)).as("a clock set back").isFalse();
    }

    @Test
    void aMissCountsInEveryFolder() {
        misses.missed("folder-a", NOW);
        for (int i = 0; i < 1000; i++) {
            assertThat(misses.likelyIn("folder-" + i, "name", NOW)).isTrue(); // an archive extracted in any order
        }
    }

    @Test
    void theNameJustMadeIsStattedAtOnceUntilTheNextMiss() {
        misses.missed("folder-a", NOW);
        misses.made("folder-a", "created");
        for (int i = 0; i < 5; i++) {
            assertThat(misses.likelyIn("folder-a", "created", NOW)).isFalse(); // its setattrs' lookups
        }
        assertThat(misses.likelyIn("folder-a", "next", NOW)).isTrue();
        assertThat(misses.likelyIn("folder-b", "created", NOW)).as("the same name elsewhere").isTrue();
        misses.missed("folder-b", NOW + 1);
        assertThat(misses.likelyIn("folder-a", "created", NOW + 1)).isTrue();
    }

    @Test
    void makingNamesIsNoWrongGuess() {
        misses.missed("folder-a", NOW);
        for (int i = 0; i < 10; i++) {
            misses.made("folder-a", "created-" + i);
        }
        assertThat(misses.likelyIn("folder-a", "next", NOW)).isTrue();
    }

    @Test
    void probesThatKeepFindingNamesPresentStopUntilTheNextMiss() {
        misses.missed("folder-a", NOW);
        for (int i = 0; i < RecentMisses.WRONG_GUESSES; i++) {
            assertThat(misses.likelyIn("folder-b", "existing-" + i, NOW)).isTrue();
            misses.present("folder-b", "existing-" + i);
        }
        assertThat(misses.likelyIn("folder-b", "existing-next", NOW)).isFalse(); // a program reading what exists
        assertThat(misses.likelyIn("folder-a", "new", NOW)).isFalse();

        misses.missed("folder-a", NOW + 1);
        assertThat(misses.likelyIn("folder-b", "existing-next", NOW + 1)).isTrue();
    }

    @Test
    void aNameFoundPresentIsNotProbedAgain() {
        misses.missed("folder-a", NOW);
        misses.present("folder-a", "there");
        assertThat(misses.likelyIn("folder-a", "there", NOW)).isFalse();
        assertThat(misses.likelyIn("folder-a", "other", NOW)).isTrue();
    }

    @Test
    void withoutAMissNothingCounts() {
        misses.present("folder-a", "there");
        misses.made("folder-a", "made");
        assertThat(misses.likelyIn("folder-a", "other", NOW)).isFalse();
    }

    @Test
    void lockingForgetsEverything() {
        misses.missed("folder-a", NOW);
        misses.clear();
        assertThat(misses.likelyIn("folder-a", "name", NOW)).isFalse();
    }
}
