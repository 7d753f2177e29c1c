package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The session's worker counts: grown one by one as the last idle worker gets busy, exact when a thread cannot start. */
class WorkerPoolTest {
    private final List<String> names = new ArrayList<>();

    /** A starter that records what it starts (no thread runs) and fails from the {@code failFrom}-th start on. */
    private WorkerPool.Starter failingFrom(int failFrom) {
        return (work, name) -> {
            if (names.size() + 1 >= failFrom) {
                throw new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource limits reached");
            }
            names.add(name);
        };
    }

    @Test
    void anotherWorkerStartsWhenTheLastIdleOneGetsBusyUpToTheMaximum() {
        WorkerPool pool = new WorkerPool(3, failingFrom(Integer.MAX_VALUE), () -> {}, "w-");
        assertThat(pool.startFirst()).isTrue();
        pool.busy(); // worker 1 takes a request: none idle, worker 2 starts
        pool.busy(); // worker 2 takes one: worker 3 starts
        pool.busy(); // worker 3 takes one: the maximum, nothing starts
        assertThat(names).containsExactly("w-1", "w-2", "w-3");
        pool.idleAgain();
        pool.busy();
        assertThat(pool.started()).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            pool.idleAgain();
        }
        assertThat(pool.leave()).isFalse();
        assertThat(pool.leave()).isFalse();
        assertThat(pool.leave()).as("the last one out").isTrue();
    }

    @Test
    void aThreadThatCannotStartIsNotCountedAndTheOthersGoOn() {
        WorkerPool pool = new WorkerPool(8, failingFrom(2), () -> {}, "w-");
        assertThat(pool.startFirst()).isTrue();
        pool.busy(); // the second worker cannot start: no exception reaches the busy worker
        assertThat(pool.started()).isEqualTo(1);
        pool.idleAgain();
        assertThat(pool.leave()).as("the one real worker is the last").isTrue();
    }

    @Test
    void noFirstWorkerIsReported() {
        WorkerPool pool = new WorkerPool(8, failingFrom(1), () -> {}, "w-");
        assertThat(pool.startFirst()).isFalse();
        assertThat(pool.started()).isZero();
    }
}
