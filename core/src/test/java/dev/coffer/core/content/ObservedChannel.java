package dev.coffer.core.content;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A channel that records which threads read where and when it was closed, and can make the
 * read-ahead's reads (those on {@code coffer-reader} threads) slow or failing, so that a test can
 * catch a read-ahead in flight.
 */
final class ObservedChannel extends DelegatingChannel {
    volatile long readAheadDelayMillis;
    /** Delay of every positional read by any other thread (the readers themselves). */
    volatile long callerDelayMillis;
    volatile boolean failReadAheads;
    /** "thread-kind position" of every positional read, in order, and "close" when closed. */
    final List<String> events = Collections.synchronizedList(new ArrayList<>());

    ObservedChannel(FileChannel d) {
        super(d);
    }

    static boolean onReaderThread() {
        return Thread.currentThread().getName().startsWith("coffer-reader-");
    }

    /** Waits (up to 10 s) until an event starting with {@code prefix} has been recorded. */
    void awaitEvent(String prefix) throws InterruptedException {
        awaitEvents(prefix, 1);
    }

    /** Waits (up to 10 s) until {@code n} events starting with {@code prefix} have been recorded. */
    void awaitEvents(String prefix, long n) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (count(prefix) >= n) {
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError(n + " events " + prefix + " expected in " + events);
    }

    /** Events recorded so far that start with {@code prefix}. */
    long count(String prefix) {
        synchronized (events) {
            return events.stream().filter(e -> e.startsWith(prefix)).count();
        }
    }

    long readAheads() {
        synchronized (events) {
            return events.stream().filter(e -> e.startsWith("ahead ")).count();
        }
    }

    @Override public int read(ByteBuffer dst, long position) throws IOException {
        boolean ahead = onReaderThread();
        if (!ahead && callerDelayMillis > 0) {
            try {
                Thread.sleep(callerDelayMillis);
            } catch (InterruptedException e) {
                throw new IOException("interrupted", e);
            }
        }
        if (ahead) {
            events.add("ahead-start " + position);
            if (readAheadDelayMillis > 0) {
                try {
                    Thread.sleep(readAheadDelayMillis);
                } catch (InterruptedException e) {
                    throw new IOException("interrupted", e);
                }
            }
            if (failReadAheads) {
                events.add("ahead-failed " + position);
                throw new IOException("injected read failure");
            }
        }
        int n = d.read(dst, position);
        events.add((ahead ? "ahead " : "caller ") + position + (isOpen() ? " read" : " after-close"));
        return n;
    }

    @Override protected void implCloseChannel() throws IOException {
        events.add("close");
        d.close();
    }
}
