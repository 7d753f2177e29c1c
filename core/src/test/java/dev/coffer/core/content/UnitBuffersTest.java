package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A write's batch buffer is as large as the write needs, not a whole batch. */
class UnitBuffersTest {
    private static final int BATCH = 32;
    private static final int UNIT = 4096 + 48;

    @Test
    void aSmallWriteGetsASmallBuffer() {
        UnitBuffers buffers = new UnitBuffers(BATCH, UNIT);
        byte[] stored = buffers.stored(88, 3, false);
        assertThat(stored.length).isBetween(88 + 3 * UNIT, 2 * (88 + 3 * UNIT));
    }

    @Test
    void theRetaggedUnitFitsAfterTheBatch() {
        UnitBuffers buffers = new UnitBuffers(BATCH, UNIT);
        byte[] stored = buffers.stored(0, 5, true);
        assertThat(buffers.retagOffset(5)).isEqualTo(5 * UNIT);
        assertThat(stored.length).isGreaterThanOrEqualTo(buffers.retagOffset(5) + UNIT);
    }

    @Test
    void growsByDoublingAndKeepsTheBufferWhileItFits() {
        UnitBuffers buffers = new UnitBuffers(BATCH, UNIT);
        byte[] first = buffers.stored(0, 1, false);
        byte[] second = buffers.stored(0, 2, false);
        assertThat(second.length).isEqualTo(2 * first.length);
        assertThat(buffers.stored(0, 1, false)).isSameAs(second);
    }

    @Test
    void aFullBatchWithHeaderOrRetagFits() {
        UnitBuffers buffers = new UnitBuffers(BATCH, UNIT);
        assertThat(buffers.stored(88, BATCH, false).length).isGreaterThanOrEqualTo(88 + BATCH * UNIT);
        assertThat(buffers.stored(0, BATCH, true).length).isGreaterThanOrEqualTo((BATCH + 1) * UNIT);
    }
}
