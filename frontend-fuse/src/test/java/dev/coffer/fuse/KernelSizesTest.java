package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KernelSizesTest {
    private final KernelSizes sizes = new KernelSizes();

    @Test
    void theSizeLastGivenForANameIsKept() {
        assertThat(sizes.given("/a")).as("never noted").isEqualTo(-1);
        sizes.noted("/a", 10);
        sizes.noted("/a", 11);
        assertThat(sizes.given("/a")).isEqualTo(11);
        assertThat(sizes.given("/b")).as("another name").isEqualTo(-1);
    }

    @Test
    void aRenameMovesTheSizeToTheNewNameAndForgetsTheOld() {
        sizes.noted("/tmp~", 6);
        sizes.noted("/doc", 50);
        sizes.moved("/tmp~", "/doc");
        assertThat(sizes.given("/doc")).as("the kernel's entry for /doc now has the renamed file's size").isEqualTo(6);
        assertThat(sizes.given("/tmp~")).as("forgotten").isEqualTo(-1);
    }

    @Test
    void aRenameOfANameNeverNotedForgetsTheTarget() {
        sizes.noted("/doc", 50);
        sizes.moved("/folder", "/doc");
        assertThat(sizes.given("/doc")).isEqualTo(-1);
    }

    @Test
    void anUnlinkedNameIsForgotten() {
        sizes.noted("/a", 10);
        sizes.forget("/a");
        assertThat(sizes.given("/a")).isEqualTo(-1);
    }
}
