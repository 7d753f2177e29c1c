package dev.coffer.core.content;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The ciphertext channel that every handle of a file shares, with I/O that a caller's interrupt does
 * not end: the JDK closes a {@link FileChannel} when a thread whose interrupt flag is set does I/O on
 * it, which would close the file for every handle and drop the appends queued for it. Each call
 * clears the calling thread's flag, runs on the channel, and sets the flag again, so the caller still
 * sees its interrupt. (An interrupt that arrives during the system call itself still closes the
 * channel; that needs a thread of the caller's to be interrupted exactly then.)
 */
final class InterruptSafeChannel extends FileChannel {
    /** Volatile: {@link #useWritable} replaces it while other threads may read through it. */
    private volatile FileChannel channel;
    /** Channels replaced by {@link #useWritable}: kept open, as file locks and read-ahead still use them. */
    private final List<FileChannel> replaced = new ArrayList<>(); // guarded by this

    private InterruptSafeChannel(FileChannel channel) {
        this.channel = channel;
    }

    static InterruptSafeChannel wrap(FileChannel channel) {
        return channel instanceof InterruptSafeChannel safe ? safe : new InterruptSafeChannel(channel);
    }

    /**
     * From now on does I/O through {@code writable}, a channel with write access to the same file
     * (the shared channel was opened read-only). The old channel stays open until this one closes.
     */
    synchronized void useWritable(FileChannel writable) throws IOException {
        if (!isOpen()) {
            writable.close();
            throw new ClosedChannelException();
        }
        replaced.add(channel);
        channel = writable;
    }

    @FunctionalInterface
    private interface Io<T> {
        T run() throws IOException;
    }

    private static <T> T uninterrupted(Io<T> io) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            return io.run();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return uninterrupted(() -> channel.read(dst));
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return uninterrupted(() -> channel.read(dsts, offset, length));
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return uninterrupted(() -> channel.read(dst, position));
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return uninterrupted(() -> channel.write(src));
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        return uninterrupted(() -> channel.write(srcs, offset, length));
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        return uninterrupted(() -> channel.write(src, position));
    }

    @Override
    public long position() throws IOException {
        return uninterrupted(channel::position);
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        uninterrupted(() -> channel.position(newPosition));
        return this;
    }

    @Override
    public long size() throws IOException {
        return uninterrupted(channel::size);
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        uninterrupted(() -> channel.truncate(size));
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        uninterrupted(() -> {
            channel.force(metaData);
            return null;
        });
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return uninterrupted(() -> channel.transferTo(position, count, target));
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return uninterrupted(() -> channel.transferFrom(src, position, count));
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return uninterrupted(() -> channel.map(mode, position, size));
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return uninterrupted(() -> channel.lock(position, size, shared));
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return uninterrupted(() -> channel.tryLock(position, size, shared));
    }

    @Override
    protected void implCloseChannel() throws IOException {
        IOException failure = null;
        List<FileChannel> all = new ArrayList<>();
        synchronized (this) {
            all.add(channel);
            all.addAll(replaced);
        }
        for (FileChannel c : all) {
            try {
                c.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
