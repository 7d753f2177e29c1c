package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KernelSizesTest {
    private final KernelSizes sizes = new KernelSizes();

    @Test
    void aNameIsStaleOnlyWhenTheKernelWasGivenAnotherSize() {
        assertThat(sizes.stale("/a", 10)).as("never noted: not checked").isFalse();
        sizes.noted("/a", 10);
        assertThat(sizes.stale("/a", 10)).isFalse();
        assertThat(sizes.stale("/a", 11)).isTrue();
        assertThat(sizes.stale("/b", 11)).as("another name").isFalse();
    }

    @Test
    void aRenameMovesTheSizeToTheNewNameAndForgetsTheOld() {
        sizes.noted("/tmp~", 6);
        sizes.noted("/doc", 50);
        sizes.moved("/tmp~", "/doc");
        assertThat(sizes.stale("/doc", 50)).as("the kernel's entry for /doc now has the renamed file's size").isTrue();
        assertThat(sizes.stale("/doc", 6)).isFalse();
        assertThat(sizes.stale("/tmp~", 50)).as("forgotten").isFalse();
    }

    @Test
    void aRenameOfANameNeverNotedForgetsTheTarget() {
        sizes.noted("/doc", 50);
        sizes.moved("/folder", "/doc");
        assertThat(sizes.stale("/doc", 7)).isFalse();
    }

    @Test
    void anUnlinkedNameIsForgotten() {
        sizes.noted("/a", 10);
        sizes.forget("/a");
        assertThat(sizes.stale("/a", 11)).isFalse();
    }
}
