package dev.coffer.core.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A folder of the vault opened for reading, as {@code open(dir, O_RDONLY)} gives on Linux and the
 * default provider allows: it reads nothing ("Is a directory"), but {@link #force} makes the folder's
 * changes durable by fsyncing its storage folder. A frontend answers a program's {@code fsync} of a
 * folder with it (deletes do not sync their folder themselves, so that {@code rm -rf} does not pay
 * one fsync per file; creations, renames and folder changes still do).
 *
 * <p>Not responsible for listing the folder (that is the directory stream); holds no key material.
 */
final class FolderChannel extends FileChannel {
    private final Path storage;
    private final String display;

    /**
     * @param storage the ciphertext storage folder of the cleartext folder
     * @param display the cleartext path, for error messages
     */
    FolderChannel(Path storage, String display) {
        this.storage = storage;
        this.display = display;
    }

    private FileSystemException isADirectory() {
        return new FileSystemException(display, null, "Is a directory");
    }

    @Override
    public void force(boolean metaData) throws IOException {
        ensureOpen();
        FileChannel ch;
        try {
            ch = FileChannel.open(storage, StandardOpenOption.READ);
        } catch (UnsupportedOperationException e) {
            return; // a store without folder channels (Windows) has no folder fsync
        } catch (FileSystemException e) {
            // A store that cannot open a folder at all (Jimfs, in memory) has nothing to make durable.
            if (storage.getFileSystem() != FileSystems.getDefault() && Files.isDirectory(storage, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            throw e;
        }
        try (ch) {
            ch.force(true);
        }
    }

    private void ensureOpen() throws IOException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        throw isADirectory();
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        ensureOpen();
        throw isADirectory();
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        ensureOpen();
        throw isADirectory();
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) {
        throw new NonWritableChannelException();
    }

    @Override
    public int write(ByteBuffer src, long position) {
        throw new NonWritableChannelException();
    }

    @Override
    public long position() throws IOException {
        ensureOpen();
        return 0;
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position");
        }
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return 0;
    }

    @Override
    public FileChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        ensureOpen();
        throw isADirectory();
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) {
        throw new NonWritableChannelException();
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        ensureOpen();
        throw isADirectory();
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        throw isADirectory();
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        throw isADirectory();
    }

    @Override
    protected void implCloseChannel() {
        // Nothing held open: force() opens the storage folder for the moment it syncs it.
    }
}
