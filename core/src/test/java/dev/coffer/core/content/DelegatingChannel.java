package dev.coffer.core.content;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A FileChannel that passes every call to another one, for test channels that change a few calls
 * (slow, failing or recorded I/O) and leave the rest as they are. Mapping is not supported.
 */
abstract class DelegatingChannel extends FileChannel {
    protected final FileChannel d;

    DelegatingChannel(FileChannel d) {
        this.d = d;
    }

    @Override public int read(ByteBuffer dst, long position) throws IOException { return d.read(dst, position); }
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
    @Override protected void implCloseChannel() throws IOException { d.close(); }
}
