package dev.coffer.core.content;

import dev.coffer.core.testing.DelegatingChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Fails exactly the n-th mutating step (a positional write or a shrinking truncate) with EIO, all
 * others succeed; in {@link Mode#HALF} the failing write first writes half its bytes, as a full disk
 * or a copy-on-write store stopping midway does.
 */
final class NthStepFailingChannel extends DelegatingChannel {
    enum Mode { EIO, HALF }

    private volatile int failAt = -1;
    private volatile Mode mode = Mode.EIO;
    private volatile int steps;
    /** Whether the armed step came (false: the change had fewer steps). */
    volatile boolean failed;

    NthStepFailingChannel(FileChannel d) {
        super(d);
    }

    /** From now on, the {@code n}-th mutating step fails as {@code m} says. */
    void arm(int n, Mode m) {
        failAt = n;
        mode = m;
        steps = 0;
        failed = false;
    }

    private synchronized boolean failNow() {
        steps++;
        if (steps == failAt) {
            failed = true;
            return true;
        }
        return false;
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        if (failNow()) {
            if (mode == Mode.HALF && src.remaining() > 1) {
                ByteBuffer part = src.duplicate();
                part.limit(part.position() + src.remaining() / 2);
                while (part.hasRemaining()) {
                    d.write(part, position + (part.position() - src.position()));
                }
            }
            throw new IOException("Input/output error (injected at step " + steps + ")");
        }
        return d.write(src, position);
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        if (size < d.size() && failNow()) {
            throw new IOException("Input/output error (injected cut at step " + steps + ")");
        }
        d.truncate(size);
        return this;
    }
}
