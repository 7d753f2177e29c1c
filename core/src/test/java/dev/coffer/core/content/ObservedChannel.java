package dev.coffer.core.content;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A channel that records which threads read where and when it was closed, and can make the
 * read-ahead's reads (those on {@code coffer-reader} threads) slow or failing, so that a test can
 * catch a read-ahead in flight.
 */
final class ObservedChannel extends FileChannel {
    private final FileChannel d;
    volatile long readAheadDelayMillis;
    volatile boolean failReadAheads;
    /** "thread-kind position" of every positional read, in order, and "close" when closed. */
    final List<String> events = Collections.synchronizedList(new ArrayList<>());

    ObservedChannel(FileChannel d) {
        this.d = d;
    }

    static boolean onReaderThread() {
        return Thread.currentThread().getName().startsWith("coffer-reader-");
    }

    /** Waits (up to 10 s) until an event starting with {@code prefix} has been recorded. */
    void awaitEvent(String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            synchronized (events) {
                if (events.stream().anyMatch(e -> e.startsWith(prefix))) {
                    return;
                }
            }
            Thread.sleep(1);
        }
        throw new AssertionError("no event " + prefix + " in " + events);
    }

    long readAheads() {
        synchronized (events) {
            return events.stream().filter(e -> e.startsWith("ahead ")).count();
        }
    }

    @Override public int read(ByteBuffer dst, long position) throws IOException {
        boolean ahead = onReaderThread();
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
        events.add((ahead ? "ahead " : "caller ") + position + (isOpen() ? "" : " after-close"));
        return n;
    }

    @Override public int write(ByteBuffer src, long position) throws IOException { return d.write(src, position); }
    @Override public int read(ByteBuffer dst) throws IOException { return d.read(dst); }
    @Override public long read(ByteBuffer[] dsts, int offset, int length) throws IOException { return d.read(dsts, offset, length); }
    @Override public int write(ByteBuffer src) throws IOException { return d.write(src); }
    @Override public long write(ByteBuffer[] srcs, int offset, int length) throws IOException { return d.write(srcs, offset, length); }
    @Override public long position() throws IOException { return d.position(); }
    @Override public FileChannel position(long p) throws IOException { d.position(p); return this; }
    @Override public long size() throws IOException { return d.size(); }
    @Override public FileChannel truncate(long size) throws IOException { d.truncate(size); return this; }
    @Override public void force(boolean metaData) throws IOException { d.force(metaData); }
    @Override public long transferTo(long p, long c, WritableByteChannel t) throws IOException { return d.transferTo(p, c, t); }
    @Override public long transferFrom(ReadableByteChannel s, long p, long c) throws IOException { return d.transferFrom(s, p, c); }
    @Override public MappedByteBuffer map(MapMode mode, long p, long s) { throw new UnsupportedOperationException(); }
    @Override public FileLock lock(long p, long s, boolean shared) throws IOException { return d.lock(p, s, shared); }
    @Override public FileLock tryLock(long p, long s, boolean shared) throws IOException { return d.tryLock(p, s, shared); }
    @Override protected void implCloseChannel() throws IOException {
        events.add("close");
        d.close();
    }
}
