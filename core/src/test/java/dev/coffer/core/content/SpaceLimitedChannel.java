package dev.coffer.core.content;

import dev.coffer.core.testing.DelegatingChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A channel that accepts {@code budget} more bytes of writes, then fails like a full disk; each
 * positional write can also be made slow, so that a write running behind is still running when the
 * test's next call arrives. Records every positional write. Thread-safe enough for one writer at a time.
 */
final class SpaceLimitedChannel extends DelegatingChannel {
    private volatile long budget;
    private volatile long writeDelayMillis;
    private volatile java.util.concurrent.CountDownLatch gate;
    /** Position and length of every positional write, in order. */
    final List<long[]> writes = Collections.synchronizedList(new ArrayList<>());

    SpaceLimitedChannel(FileChannel d, long budget) {
        super(d);
        this.budget = budget;
    }

    /** From now on, only {@code bytes} more bytes fit. */
    void setBudget(long bytes) {
        budget = bytes;
    }

    private volatile boolean growthOnly;

    /**
     * Whether only bytes written past the file's end count against the budget, as on a file system
     * that overwrites blocks in place (ext4, tmpfs); by default every byte counts (copy-on-write).
     */
    void setGrowthOnly(boolean growthOnly) {
        this.growthOnly = growthOnly;
    }

    /** As {@link #spend(ByteBuffer)}, charging only what {@code src} at {@code position} adds past the end. */
    private synchronized int spendGrowth(ByteBuffer src, long position) throws IOException {
        long size = d.size();
        long growth = Math.max(0, position + src.remaining() - size);
        if (growth <= budget) {
            budget -= growth;
            return -1;
        }
        long allowed = size + budget - position;
        budget = 0;
        if (allowed <= 0) {
            throw new IOException("No space left on device");
        }
        return (int) allowed;
    }

    /**
     * Each later positional write first waits until {@code gate} is counted down (null: none), so a
     * test can hold writes running in the background while its own calls go on.
     */
    void setGate(java.util.concurrent.CountDownLatch gate) {
        this.gate = gate;
    }

    /** Each later positional write first sleeps this long. */
    void setWriteDelayMillis(long millis) {
        writeDelayMillis = millis;
    }

    private volatile long budgetAfterFailure = -1;

    /**
     * Once a write has failed for lack of room, {@code bytes} fit again (-1: none): a copy-on-write
     * store that gives back what the failed write had reserved, so the old bytes can be put back.
     */
    void setBudgetAfterFailure(long bytes) {
        budgetAfterFailure = bytes;
    }

    /** How many bytes of {@code src} may still be written (-1: all of them); none left fails like ENOSPC. */
    private synchronized int spend(ByteBuffer src) throws IOException {
        if (src.remaining() <= budget) {
            budget -= src.remaining();
            return -1;
        }
        if (budget == 0) {
            if (budgetAfterFailure >= 0) {
                budget = budgetAfterFailure;
                budgetAfterFailure = -1;
            }
            throw new IOException("No space left on device");
        }
        int allowed = (int) budget;
        budget = 0;
        return allowed; // a short write: the caller loops and then fails
    }

    @Override public int write(ByteBuffer src, long position) throws IOException {
        java.util.concurrent.CountDownLatch g = gate;
        if (g != null) {
            try {
                g.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        writes.add(new long[] {position, src.remaining()});
        long delay = writeDelayMillis;
        if (delay > 0) {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        int allowed = growthOnly ? spendGrowth(src, position) : spend(src);
        if (allowed >= 0) {
            ByteBuffer part = src.duplicate();
            part.limit(part.position() + allowed);
            int n = d.write(part, position);
            src.position(src.position() + n);
            return n;
        }
        return d.write(src, position);
    }

    private volatile boolean cutsFail;

    /** Whether a truncate that would shorten the file fails (EIO from a network store, say) and changes nothing. */
    void setCutsFail(boolean cutsFail) {
        this.cutsFail = cutsFail;
    }

    @Override public FileChannel truncate(long size) throws IOException {
        if (cutsFail && size < d.size()) {
            throw new IOException("Input/output error");
        }
        d.truncate(size);
        return this;
    }

    @Override public int write(ByteBuffer src) throws IOException { throw new UnsupportedOperationException(); }
    @Override public long write(ByteBuffer[] srcs, int offset, int length) { throw new UnsupportedOperationException(); }
    @Override public long transferFrom(ReadableByteChannel s, long p, long c) { throw new UnsupportedOperationException(); }
}
