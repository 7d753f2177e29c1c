package dev.coffer.core.nio;

import dev.coffer.core.names.EntryType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.CopyOption;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Copies within one vault with the default provider's semantics: a folder is copied without its
 * children, a symlink is followed unless NOFOLLOW_LINKS, REPLACE_EXISTING replaces an empty folder
 * or any file, COPY_ATTRIBUTES keeps the times. File content is streamed in 128 KiB pieces.
 */
final class Copier {
    private static final int CHUNK = 128 * 1024;

    private final CofferFileSystem fs;
    /** Makes the cleartext buffer of a copy (heap, so it can be zeroed); tests look at it afterwards. */
    private final IntFunction<ByteBuffer> buffers;

    Copier(CofferFileSystem fs) {
        this(fs, ByteBuffer::allocate);
    }

    Copier(CofferFileSystem fs, IntFunction<ByteBuffer> buffers) {
        this.fs = fs;
        this.buffers = buffers;
    }

    void copy(CofferPath source, CofferPath target, CopyOption... options) throws IOException {
        List<CopyOption> opts = Arrays.asList(options);
        boolean follow = !opts.contains(LinkOption.NOFOLLOW_LINKS);
        Located src = fs.resolver.existing(source, follow);
        Located dst = fs.resolver.locate(target);
        if (sameEntry(src, dst)) {
            return; // also the same name in another Unicode form: deleting the target would delete the source
        }
        if (dst.exists()) {
            if (!opts.contains(StandardCopyOption.REPLACE_EXISTING)) {
                throw new FileAlreadyExistsException(target.toString());
            }
            fs.provider().delete(target);
        }
        EntryType type = src.isRoot() ? EntryType.DIRECTORY : src.entry().type();
        switch (type) {
            case DIRECTORY -> fs.provider().createDirectory(target);
            case SYMLINK -> fs.provider().createSymbolicLink(target, fs.provider().readSymbolicLink(source));
            default -> copyContent(source, target, follow);
        }
        if (opts.contains(StandardCopyOption.COPY_ATTRIBUTES) && type != EntryType.SYMLINK) {
            BasicFileAttributes a = fs.provider().readAttributes(source, BasicFileAttributes.class);
            Files.getFileAttributeView(target, java.nio.file.attribute.BasicFileAttributeView.class)
                    .setTimes(a.lastModifiedTime(), a.lastAccessTime(), null);
        }
    }

    private static boolean sameEntry(Located src, Located dst) {
        if (src.isRoot() || dst.isRoot()) {
            return src.isRoot() && dst.isRoot();
        }
        return src.slot().entryPath().equals(dst.slot().entryPath());
    }

    private void copyContent(CofferPath source, CofferPath target, boolean follow) throws IOException {
        java.util.Set<java.nio.file.OpenOption> readOpts = follow ? java.util.Set.of(StandardOpenOption.READ)
                : java.util.Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        try (FileChannel in = fs.provider().newFileChannel(source, readOpts);
             FileChannel out = fs.provider().newFileChannel(target,
                     java.util.Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW))) {
            ByteBuffer buf = buffers.apply(CHUNK);
            try {
                long pos = 0;
                while (true) {
                    buf.clear();
                    int n = in.read(buf, pos);
                    if (n < 0) {
                        break;
                    }
                    buf.flip();
                    while (buf.hasRemaining()) {
                        out.write(buf);
                    }
                    pos += n;
                }
            } finally {
                Arrays.fill(buf.array(), (byte) 0); // the last piece of cleartext, also when the copy failed
            }
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(source.toString());
        }
    }
}
