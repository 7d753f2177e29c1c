package dev.coffer.core.content;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * One ciphertext write of an open file: a batch of stored units at one position, then optionally
 * the old last unit re-tagged, in that order (spec 5.2: new units first, so a crash in between
 * leaves the old content readable). It runs either on the caller's thread ({@link #run}) or on a
 * shared writer thread ({@link #start}) while the caller encrypts the next batch, and then
 * {@link #awaitAndUndo} hands its outcome back, cutting the ciphertext back to its length before
 * the write if it failed. It does not decide when a write may run behind, nor restore the open
 * file's own state: {@link OpenFile} does both, under its lock.
 *
 * <p>It holds only ciphertext (the caller's batch buffer, not copied), never keys or cleartext.
 */
final class PendingWrite implements Runnable {
    /**
     * How long a waiting caller spins before it parks. Short: while it spins, a writer thread waiting
     * for a CPU (2 cores and another busy process) cannot have this one; parking lets it migrate.
     */
    private static final long SPIN_NANOS = 10_000;
    /** Writer threads shared by every open file: a thread per pending write at most. */
    private static final Executor WRITERS = DaemonThreads.pool("coffer-writer-");

    /**
     * Writes on a writer thread that have not finished. The JVM's exit waits for them (up to
     * {@link #EXIT_WAIT_NANOS}), so that a program that exits without closing a file it appended to
     * does not leave half a batch behind; writer threads are daemons and would otherwise just stop.
     */
    private static final Set<PendingWrite> RUNNING = ConcurrentHashMap.newKeySet();
    private static final long EXIT_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    static {
        ExitWaits.addHook("coffer-writer-exit", PendingWrite::awaitRunningAtExit);
    }

    private final FileChannel channel;
    private final byte[] buffer;
    private final int unitsLength;
    private final long unitsPosition;
    private final int retagOffset;
    private final int retagLength;
    private final long retagPosition;
    /** The re-tagged unit's tag as stored before this write (null: no re-tag), put back if it fails. */
    private final byte[] oldTag;
    /** Ciphertext length to cut back to if the new units could not all be written. */
    final long restoreLength;
    /** Cleartext size of the file before this write. */
    final long restoreSize;

    private final Completion done = new Completion(SPIN_NANOS);
    /** Set before {@link #done} is signalled; read after it. */
    private Throwable failure;
    /**
     * Set (under the file's lock) once the call that started this write has returned, leaving it
     * running: from then on its failure is an earlier write lost, not that call's own failure.
     */
    private boolean answered;
    /** Set (by the thread that undoes this write) when its cut back failed. */
    private boolean cutFailed;

    /**
     * @param buffer        stored units at offset 0 ({@code unitsLength} bytes), and the re-tagged old
     *                      last unit at {@code retagOffset} ({@code retagLength} bytes, 0 for none)
     * @param oldTag        the re-tagged unit's last {@link UnitCryptor#TAG} bytes as stored now (null for none)
     * @param restoreLength ciphertext length before this write
     * @param restoreSize   cleartext size before this write
     */
    PendingWrite(FileChannel channel, byte[] buffer, int unitsLength, long unitsPosition, int retagOffset,
            int retagLength, long retagPosition, byte[] oldTag, long restoreLength, long restoreSize) {
        this.channel = channel;
        this.buffer = buffer;
        this.unitsLength = unitsLength;
        this.unitsPosition = unitsPosition;
        this.retagOffset = retagOffset;
        this.retagLength = retagLength;
        this.retagPosition = retagPosition;
        this.oldTag = oldTag;
        this.restoreLength = restoreLength;
        this.restoreSize = restoreSize;
    }

    /**
     * Runs this write on a writer thread and returns true; {@link #awaitAndUndo} before touching its
     * buffer or the file again. Returns false once it has run on the caller's thread instead: when
     * the JVM's exit has begun ({@link ExitWaits#exiting}: its hook may have ended its wait already,
     * and a writer thread would stop mid-write when the JVM halts), or when no writer thread could
     * be had. Its outcome is then known, for the caller to take at once.
     */
    boolean start() {
        RUNNING.add(this);
        if (ExitWaits.exiting()) { // read after the registration, so that a hook that starts later waits for it
            run();
            return false;
        }
        try {
            WRITERS.execute(this);
            return true;
        } catch (Throwable noThread) { // e.g. no native thread left: write here rather than never
            run();
            return false;
        }
    }

    /** Polls rather than parks: {@link #done}'s one waiter is the caller of {@link #await}. */
    private static void awaitRunningAtExit() {
        ExitWaits.await(RUNNING, write -> !write.done.isDone(), System.nanoTime() + EXIT_WAIT_NANOS);
    }

    @Override
    public void run() {
        try {
            writeFully(ByteBuffer.wrap(buffer, 0, unitsLength), unitsPosition);
            if (retagLength > 0) {
                writeFully(ByteBuffer.wrap(buffer, retagOffset, retagLength), retagPosition);
            }
        } catch (Throwable t) { // handed to the caller by awaitAndUndo: nothing may get lost on this thread
            failure = t;
        } finally {
            RUNNING.remove(this);
            done.signal();
        }
    }

    private void writeFully(ByteBuffer src, long position) throws IOException {
        long pos = position;
        while (src.hasRemaining()) {
            pos += channel.write(src, pos);
        }
    }

    /**
     * Waits until this write has finished (spinning briefly first, to save a wake-up when it is
     * about to end) and returns what it failed with, or null. Ignores interrupts, which it restores.
     */
    private Throwable await() {
        done.await();
        return failure;
    }

    /**
     * Waits for this write and cuts the ciphertext back to {@link #restoreLength} whatever its
     * outcome (its call failed after starting it); returns what it failed with, or what the cut did.
     */
    IOException awaitAndDiscard() {
        Throwable t = await();
        IOException failure = t == null ? null : t instanceof IOException io ? io : new IOException(t.getMessage(), t);
        try {
            restore();
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        return failure;
    }

    /**
     * Cuts the ciphertext back to {@link #restoreLength}, then puts the old last unit's tag back: the
     * re-tag may have been written, or cut short (a copy-on-write store out of room), and that unit
     * is the last one again.
     */
    private void restore() throws IOException {
        try {
            channel.truncate(restoreLength);
        } catch (IOException e) {
            cutFailed = true;
            throw e;
        }
        if (oldTag != null) {
            writeFully(ByteBuffer.wrap(oldTag), retagPosition + retagLength - oldTag.length);
        }
    }

    /** Whether the cut back to {@link #restoreLength} failed: stored bytes may lie past it. */
    boolean cutFailed() {
        return cutFailed;
    }

    /** The call that started this write has returned while it runs (see {@link #answered}). */
    void markAnswered() {
        answered = true;
    }

    boolean answered() {
        return answered;
    }

    /**
     * Waits for this write; if it failed, cuts the ciphertext back to {@link #restoreLength} (also when
     * only the re-tag after the new units failed: the size goes back, so must the units, or they would
     * come back when the file is opened again, behind an old last unit still tagged as the last) and
     * returns the error to throw: as it was while the call that started it has not returned (a runtime
     * exception or error is rethrown as it is), an {@link EarlierWriteLostException} once that call
     * has returned. Returns null if it succeeded.
     */
    IOException awaitAndUndo() {
        Throwable t = await();
        if (t == null) {
            return null;
        }
        boolean earlier = answered;
        IOException reported = !earlier && t instanceof IOException io ? io : new EarlierWriteLostException(t);
        try {
            restore();
        } catch (IOException suppressed) {
            reported.addSuppressed(suppressed);
        }
        if (!earlier && t instanceof RuntimeException r) {
            throw r;
        }
        if (!earlier && t instanceof Error e) {
            throw e;
        }
        return reported;
    }
}
