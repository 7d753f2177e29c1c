package dev.coffer.core.nio;

import dev.coffer.core.content.OpenFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A {@link FileChannel} on a cleartext file: its own position, mode and append flag over the
 * shared {@link OpenFile}. Memory mapping is not supported (the content is encrypted).
 */
final class CleartextFileChannel extends FileChannel {
    private static final int TRANSFER_CHUNK = 128 * 1024;

    private final OpenFiles registry;
    private final OpenFiles.Handle handle;
    private final OpenFile file;
    private final boolean readable;
    private final boolean writable;
    private final boolean append;
    private long position;

    CleartextFileChannel(OpenFiles registry, OpenFiles.Handle handle, boolean readable, boolean writable, boolean append) {
        this.registry = registry;
        this.handle = handle;
        this.file = handle.file;
        this.readable = readable;
        this.writable = writable;
        this.append = append;
        registry.register(this);
    }

    @Override
    public synchronized int read(ByteBuffer dst) throws IOException {
        int n = read(dst, position);
        if (n > 0) {
            position += n;
        }
        return n;
    }

    @Override
    public synchronized long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            int n = read(dsts[i]);
            if (n < 0) {
                return total == 0 ? -1 : total;
            }
            total += n;
            if (dsts[i].hasRemaining()) {
                break;
            }
        }
        return total;
    }

    @Override
    public int read(ByteBuffer dst, long pos) throws IOException {
        ensureOpen();
        if (!readable) {
            throw new NonReadableChannelException();
        }
        if (pos < 0) {
            throw new IllegalArgumentException("negative position");
        }
        return file.read(dst, pos);
    }

    @Override
    public synchronized int write(ByteBuffer src) throws IOException {
        if (append) {
            ensureOpen();
            if (!writable) {
                throw new NonWritableChannelException();
            }
            int n = src.remaining();
            position = file.append(src) + n;
            return n;
        }
        int n = write(src, position);
        position += n;
        return n;
    }

    @Override
    public synchronized long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            total += write(srcs[i]);
        }
        return total;
    }

    @Override
    public int write(ByteBuffer src, long pos) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        if (pos < 0) {
            throw new IllegalArgumentException("negative position");
        }
        return file.write(src, pos);
    }

    @Override
    public synchronized long position() throws IOException {
        ensureOpen();
        return append ? file.size() : position;
    }

    @Override
    public synchronized FileChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position");
        }
        position = newPosition;
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return file.size();
    }

    /** Like the default provider: shrinks only; a larger size leaves the file alone. */
    @Override
    public synchronized FileChannel truncate(long size) throws IOException {
        ensureOpen();
        if (size < 0) {
            throw new IllegalArgumentException("negative size");
        }
        if (!writable) {
            throw new NonWritableChannelException();
        }
        if (size < file.size()) {
            file.setSize(size);
        }
        if (position > size) {
            position = size;
        }
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        ensureOpen();
        file.force(metaData);
    }

    @Override
    public long transferTo(long pos, long count, WritableByteChannel target) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(TRANSFER_CHUNK, Math.max(1, count)));
        long done = 0;
        while (done < count) {
            buf.clear().limit((int) Math.min(buf.capacity(), count - done));
            int n = read(buf, pos + done);
            if (n <= 0) {
                break;
            }
            buf.flip();
            while (buf.hasRemaining()) {
                target.write(buf);
            }
            done += n;
        }
        return done;
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long pos, long count) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(TRANSFER_CHUNK, Math.max(1, count)));
        long done = 0;
        while (done < count) {
            buf.clear().limit((int) Math.min(buf.capacity(), count - done));
            int n = src.read(buf);
            if (n <= 0) {
                break;
            }
            buf.flip();
            done += write(buf, pos + done);
        }
        return done;
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long pos, long size) {
        throw new UnsupportedOperationException("memory-mapping an encrypted file is not supported");
    }

    /** Advisory locks on the same region of the ciphertext file (the registry shares one ciphertext channel). */
    @Override
    public FileLock lock(long pos, long size, boolean shared) throws IOException {
        ensureOpen();
        return new DelegatingFileLock(this, file.ciphertextChannel().lock(pos, size, shared));
    }

    @Override
    public FileLock tryLock(long pos, long size, boolean shared) throws IOException {
        ensureOpen();
        FileLock l = file.ciphertextChannel().tryLock(pos, size, shared);
        return l == null ? null : new DelegatingFileLock(this, l);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        registry.release(handle, this);
    }

    private void ensureOpen() throws IOException {
        if (!isOpen()) {
            throw new java.nio.channels.ClosedChannelException();
        }
    }

    /** A lock on the ciphertext channel presented as a lock of this channel. */
    private static final class DelegatingFileLock extends FileLock {
        private final FileLock delegate;

        DelegatingFileLock(FileChannel channel, FileLock delegate) {
            super(channel, delegate.position(), delegate.size(), delegate.isShared());
            this.delegate = delegate;
        }

        @Override
        public boolean isValid() {
            return delegate.isValid() && channel().isOpen();
        }

        @Override
        public void release() throws IOException {
            delegate.release();
        }
    }
}
