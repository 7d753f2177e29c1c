package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The queue itself: it appends copies in order on a runner thread, stops at the first failure,
 * drops what was queued after it, refuses offers until the failure is taken, and wipes every
 * cleartext buffer once its append ran or was dropped.
 */
class AppendQueueTest {
    /** What the appender saw: each append's first byte, and the buffers it was handed. */
    private final List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
    private final List<byte[]> buffers = Collections.synchronizedList(new ArrayList<>());

    @Test
    void appendsCopiesInOrderOnAnotherThreadAndWipesTheirBuffers() {
        List<String> threads = Collections.synchronizedList(new ArrayList<>());
        AppendQueue queue = new AppendQueue(a -> {
            threads.add(Thread.currentThread().getName());
            record(a);
        }, 16);
        byte[] data = new byte[16];
        for (int i = 1; i <= 40; i++) {
            data[0] = (byte) i;
            assertThat(queue.offer(i, i + 1, i, data, 0, 16)).isTrue();
            data[0] = 0; // changed after the offer: the queue appends its own copy
        }
        assertThat(queue.awaitIdle()).isNull();
        assertThat(queue.busy()).isFalse();
        assertThat(seen).hasSize(40);
        for (int i = 0; i < 40; i++) {
            assertThat(seen.get(i)).isEqualTo(i + 1);
        }
        assertThat(threads).allMatch(name -> name.startsWith("coffer-appender-"));
        assertThat(buffers).allMatch(AppendQueueTest::allZero);
    }

    /**
     * The JVM exit's wait: a queue that starts running while it waits on another is waited for too,
     * even where the set's iterator does not show it (here a snapshot; the real set's iterator shows
     * additions only in the part it has not passed yet).
     */
    @Test
    void theExitWaitAlsoWaitsForAQueueThatStartsWhileItWaits() throws Exception {
        CountDownLatch holdFirst = new CountDownLatch(1);
        CountDownLatch holdLater = new CountDownLatch(1);
        AppendQueue first = new AppendQueue(a -> holdFirst.await(), 4);
        AppendQueue later = new AppendQueue(a -> {
            holdLater.await();
            record(a);
        }, 4);
        java.util.Set<AppendQueue> running = new java.util.concurrent.CopyOnWriteArraySet<>();
        byte[] data = {7, 7, 7, 7};
        try {
            assertThat(first.offer(0, 4, 0, data, 0, 4)).isTrue();
            running.add(first);
            Thread exit = new Thread(() -> AppendQueue.awaitRunning(running,
                    System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30)));
            exit.start();
            Thread.sleep(100);
            assertThat(later.offer(0, 4, 0, data, 0, 4)).isTrue();
            running.add(later);
            holdFirst.countDown();
            assertThat(first.awaitIdle()).isNull();
            exit.join(300);
            assertThat(exit.isAlive()).as("still waiting for the queue that started meanwhile").isTrue();
            holdLater.countDown();
            exit.join(10_000);
            assertThat(exit.isAlive()).isFalse();
            assertThat(seen).containsExactly(7); // the later queue's append was written before the wait ended
        } finally {
            holdFirst.countDown();
            holdLater.countDown();
        }
    }

    @Test
    void aFailureStopsTheRunnerDropsTheRestAndRefusesOffersUntilItIsTaken() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        IOException broken = new IOException("Input/output error");
        AppendQueue queue = new AppendQueue(a -> {
            hold.await();
            record(a);
            if (a.oldSize() == 2) {
                throw broken;
            }
        }, 8, 16); // keeps its idle buffers, so the test sees the dropped appends' ones too
        byte[] data = {9, 9, 9, 9};
        for (int i = 1; i <= 4; i++) {
            assertThat(queue.offer(i, i + 1, i, data, 0, 4)).isTrue();
        }
        hold.countDown();
        while (queue.isRunning()) {
            Thread.sleep(1);
        }
        assertThat(queue.busy()).as("a failure not taken keeps the queue busy").isTrue();
        assertThat(queue.offer(5, 6, 5, data, 0, 4)).as("refused until the failure is taken").isFalse();

        AppendQueue.Failure failure = queue.awaitIdle();
        assertThat(failure.cause()).isSameAs(broken);
        assertThat(failure.restoreSize()).isEqualTo(2);
        assertThat(seen).containsExactly(9, 9); // the third and fourth were dropped
        assertThat(buffers).allMatch(AppendQueueTest::allZero);
        assertThat(queue.spareCount()).as("all four buffers came back").isEqualTo(4);
        assertThat(queue.sparesWiped()).as("the dropped appends' cleartext too").isTrue();
        assertThat(queue.busy()).isFalse();
        assertThat(queue.awaitIdle()).as("taken once").isNull();

        assertThat(queue.offer(5, 6, 5, data, 0, 4)).as("usable again").isTrue();
        assertThat(queue.awaitIdle()).isNull();
        assertThat(seen).hasSize(3);
    }

    /** An error that is no IOException (a bug, no memory) stops the runner the same way, kept as it is. */
    @Test
    void aRuntimeFailureIsKeptLikeAnyOther() {
        IllegalStateException bug = new IllegalStateException("a bug");
        AppendQueue queue = new AppendQueue(a -> {
            throw bug;
        }, 4);
        assertThat(queue.offer(3, 4, 3, new byte[] {1}, 0, 1)).isTrue();
        AppendQueue.Failure failure = queue.awaitIdle();
        assertThat(failure.cause()).isSameAs(bug);
        assertThat(failure.restoreSize()).isEqualTo(3);
    }

    /** An idle queue keeps no cleartext buffers: a file left open after a stream holds none. */
    @Test
    void anIdleQueueKeepsNoBuffers() {
        AppendQueue queue = new AppendQueue(this::record, 16);
        for (int i = 0; i < 5; i++) {
            assertThat(queue.offer(i, i + 1, i, new byte[16], 0, 16)).isTrue();
        }
        assertThat(queue.awaitIdle()).isNull();
        assertThat(queue.spareCount()).isZero();
    }

    @Test
    void anAppendLargerThanItsBuffersIsRefusedAsABug() {
        AppendQueue queue = new AppendQueue(this::record, 8);
        assertThatThrownBy(() -> queue.offer(0, 9, 0, new byte[9], 0, 9)).isInstanceOf(IllegalArgumentException.class);
        assertThat(queue.busy()).isFalse();
    }

    private void record(AppendQueue.Append a) {
        seen.add((int) a.cleartext()[0]);
        buffers.add(a.cleartext());
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}
