package dev.coffer.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import jnr.ffi.Pointer;
import ru.serce.jnrfuse.struct.FileStat;

/**
 * File contents: open and create (a channel per FUSE handle in the {@link OpenFileTable}), positional
 * read and write of whole requests (several threads at once, up to the 128 KiB that big_writes
 * allows), truncate by path or handle, fsync, release. Data is copied between the kernel's buffer
 * and a per-thread array; the backing channel does its own synchronisation. A handle read
 * sequentially in whole requests gets a {@link ReadStream} ({@link StreamingReads}); every content
 * change made here counts in {@link ContentChanges}, so no stream answers with bytes from before it.
 *
 * <p>Not responsible for the tree (names, folders, links: {@link TreeOps}) or for attributes.
 */
final class FileOps {
    /** The running system, for what an open of a vanished file answers ({@link StaleEntryException#forOpenOf}). */
    private static final String OS_NAME = System.getProperty("os.name", "");
    private final Backing backing;
    private final OpenFileTable handles;
    /** How this system spells O_TRUNC, O_APPEND... in the flags FUSE passes. */
    private final OpenFlagBits flagBits;
    /** Reports of lost earlier writes: kept, told again, and the kernel's cache dropped. */
    private final LostWrites lostWrites;
    private final ThreadLocal<byte[]> buffers = ThreadLocal.withInitial(() -> new byte[128 * 1024]);
    private final ContentChanges changes;
    private final StreamTiming timing;
    private final NewEntryModes modes;
    /** Per handle that has been read from: its sequential-read detection and stream. */
    private final Map<Long, StreamingReads> reads = new ConcurrentHashMap<>();
    private final LongAdder streamed = new LongAdder();
    /** At most this many files stream at once (up to 4 MiB of ring and two threads each); others read directly. */
    static final int MAX_STREAMS = 8;
    private final Semaphore rings = new Semaphore(MAX_STREAMS);
    /** The sizes the kernel was given, to tell at an open that its own is stale. */
    private final KernelSizes kernelSizes = new KernelSizes(MountOptions.CACHE_SECONDS);

    FileOps(Backing backing, OpenFileTable handles, ContentChanges changes) {
        this(backing, handles, changes, StreamTiming.MOUNT);
    }

    /** As above, with read streams' time limits of {@code timing} (tests shorten or lengthen them). */
    FileOps(Backing backing, OpenFileTable handles, ContentChanges changes, StreamTiming timing) {
        this(backing, handles, changes, timing, OpenFlagBits.HOST, () -> 0);
    }

    /**
     * As above, reading open flags as {@code flagBits} spells them (tests: another system's), with
     * {@code requester} telling who sent the request being answered.
     */
    FileOps(Backing backing, OpenFileTable handles, ContentChanges changes, StreamTiming timing, OpenFlagBits flagBits,
            LongSupplier requester) {
        this.flagBits = flagBits;
        this.lostWrites = new LostWrites(handles, requester);
        this.backing = backing;
        this.handles = handles;
        this.changes = changes;
        this.timing = timing;
        this.modes = new NewEntryModes(backing);
    }

    /**
     * Opens an existing file with the access mode (and O_TRUNC) of {@code flags}; returns the handle.
     * O_TRUNC arrives here (atomic_o_trunc) and the kernel then truncates nothing itself, also for
     * O_RDONLY|O_TRUNC, which Linux truncates like any other O_TRUNC: that file is truncated through
     * a channel of its own, closed at once, and the handle stays read-only. A file that is gone
     * is a {@link StaleEntryException} (ESTALE) on Linux: the kernel sends OPEN only for a name it holds.
     */
    long open(String path, int flags) throws IOException {
        return open(path, flags, () -> { });
    }

    /**
     * As {@link #open(String, int)}; {@code pastPageCache} is run if the open must be answered with
     * direct I/O (the kernel may hold a larger size than the file's: {@link #checkKernelSize}).
     */
    long open(String path, int flags, Runnable pastPageCache) throws IOException {
        try {
            return openExisting(path, flags, pastPageCache);
        } catch (NoSuchFileException e) {
            throw StaleEntryException.forOpenOf(e, OS_NAME);
        }
    }

    /**
     * The sizes the kernel was given ({@link FuseAdapter}'s getattr and fgetattr note them, its
     * rename and unlink move and drop them).
     */
    KernelSizes kernelSizes() {
        return kernelSizes;
    }

    private long openExisting(String path, int flags, Runnable pastPageCache) throws IOException {
        Set<OpenOption> options = accessOptions(flags);
        boolean writable = options.contains(StandardOpenOption.WRITE);
        if (!flagBits.truncates(flags)) {
            FileChannel ch = FileChannel.open(backing.resolve(path), options);
            long fh = handles.add(ch, writable, path);
            try {
                checkKernelSize(path, ch, pastPageCache);
            } catch (IOException | RuntimeException e) {
                handles.release(fh);
                throw e;
            }
            return fh;
        }
        changes.begin();
        try {
            Path p = backing.resolve(path);
            if (writable) {
                options.add(StandardOpenOption.TRUNCATE_EXISTING);
            } else {
                FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING).close();
            }
            long fh = handles.add(FileChannel.open(p, options), writable, path);
            kernelSizes.setByKernel(path, 0); // atomic_o_trunc: the kernel sets 0 itself, discarding older answers
            return fh;
        } catch (IOException e) {
            throw LostWrites.noticed(e);
        } finally {
            changes.end();
        }
    }

    /** Creates (or, without O_EXCL, opens) a file and gives it the permission bits of {@code mode}. */
    long create(String path, long mode, int flags) throws IOException {
        Set<OpenOption> options = accessOptions(flags);
        options.add(StandardOpenOption.WRITE); // a new file is always writable through the handle that made it
        options.add(flagBits.exclusive(flags) ? StandardOpenOption.CREATE_NEW : StandardOpenOption.CREATE);
        if (flagBits.truncates(flags)) {
            options.add(StandardOpenOption.TRUNCATE_EXISTING);
        }
        Path p = backing.resolveNew(path);
        FileChannel ch;
        changes.begin();
        try {
            ch = FileChannel.open(p, options, modes.atCreation(mode));
        } finally {
            changes.end();
        }
        long fh = handles.add(ch, true, path);
        try {
            modes.afterCreation(p, mode);
        } catch (IOException | RuntimeException e) {
            handles.release(fh);
            throw e;
        }
        return fh;
    }

    int read(long fh, Pointer buf, long size, long offset) throws IOException {
        FileChannel ch = handles.get(fh);
        StreamingReads r = reads.get(fh);
        if (r == null) {
            // Only a handle's first read: computeIfAbsent on every request made a fresh JVM compile it
            // (~35 ms of C2 during the first streamed GiB) for no gain once the entry exists.
            r = reads.computeIfAbsent(fh, h -> new StreamingReads(ch, changes, rings, timing));
        }
        long streamsBefore = r.streamsStarted();
        int served = r.serve(buf, size, offset);
        if (served >= 0) {
            streamed.increment();
            return served;
        }
        int n = readDirectly(ch, buf, size, offset);
        r.readDirectly(offset, size, n, streamsBefore);
        return n;
    }

    private int readDirectly(FileChannel ch, Pointer buf, long size, long offset) throws IOException {
        byte[] data = buffer(size);
        ByteBuffer bb = ByteBuffer.wrap(data, 0, (int) size);
        while (bb.hasRemaining()) {
            int n = ch.read(bb, offset + bb.position());
            if (n < 0) {
                break;
            }
        }
        int total = bb.position();
        buf.put(0, data, 0, total);
        return total;
    }

    /**
     * Writes at {@code offset}; an append ({@code appends}: the file's flags in this request have
     * O_APPEND) goes to the end of the handle's file, wherever the kernel sent it (POSIX: an O_APPEND
     * write always lands at the end of the file the descriptor has). The kernel takes an append's
     * offset from the size it has cached for the path, which can be wrong both ways: too large after
     * a write that ran behind failed and was undone (the kernel had already grown the file by it),
     * where its offset would leave a gap of zeros; too small after a sync client replaced the
     * ciphertext under the open file and a stat of the name gave the kernel the other file's size,
     * where its offset lies inside the handle's file and overwrote the earlier appends. In the first
     * case the kernel believes the bytes sit at its offset until its next GETATTR (any stat) corrects
     * the size and drops its cached pages; the appender's own file position stays past the end. A
     * page of a shared mapping written back carries no flags and goes where it belongs.
     *
     * <p>A report of a lost earlier write kept for this requester ({@link #flush}) refuses the
     * write instead, so a program whose error the kernel dropped hears it at its next write(2).
     */
    int write(long fh, Pointer buf, long size, long offset, boolean appends) throws IOException {
        FileChannel ch = handles.get(fh);
        long sender = lostWrites.sender();
        IOException kept = lostWrites.keptForWrite(fh, sender);
        if (kept != null) {
            throw kept;
        }
        byte[] data = buffer(size);
        buf.get(0, data, 0, (int) size);
        ByteBuffer bb = ByteBuffer.wrap(data, 0, (int) size);
        changes.begin();
        try {
            synchronized (lostWrites.writeOrder(fh)) {
                long at = appends ? ch.size() : offset;
                while (bb.hasRemaining()) {
                    ch.write(bb, at + bb.position());
                }
                lostWrites.wrote(fh, sender);
                wroteHere(fh, ch.size());
            }
        } catch (IOException e) {
            throw lostWrites.writeFailed(fh, e, sender);
        } finally {
            changes.end();
        }
        return (int) size;
    }

    /** Sets the size of the file at {@code path}: shrinks, or grows with zeros. */
    void truncate(String path, long size) throws IOException {
        kernelSizes.forget(path); // the kernel takes this SETATTR's answer, discarding older ones
        changes.begin();
        try (FileChannel ch = FileChannel.open(backing.resolve(path), StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            resize(ch, size);
        } catch (IOException e) {
            throw LostWrites.noticed(e);
        } finally {
            changes.end();
        }
    }

    void ftruncate(long fh, long size) throws IOException {
        sizeChangesHere(fh);
        changes.begin();
        try {
            resize(handles.get(fh), size);
        } catch (IOException e) {
            throw lostWrites.noticed(fh, e);
        } finally {
            changes.end();
        }
    }

    /**
     * Forces the file to storage; first reports, once, a lost earlier write a write request was
     * refused with since the last fsync ({@link #flush}).
     */
    void fsync(long fh, boolean dataOnly) throws IOException {
        FileChannel ch = handles.get(fh);
        IOException failure = lostWrites.keptForFsync(fh);
        if (failure != null) {
            throw failure;
        }
        try {
            ch.force(!dataOnly);
        } catch (IOException e) {
            throw lostWrites.noticed(fh, e);
        }
    }

    /**
     * A zero-length write: a vault's channel answers it with the failure of a large append it wrote
     * behind (e.g. ENOSPC), which would otherwise reach only release, whose errors the kernel drops.
     * Then the report of a lost earlier write that a write request on this handle was refused with,
     * if one is kept (thrown first if both): when the kernel split a write(2) into several requests,
     * it drops the error of any but the first (the program gets a short count), and the bytes of an
     * earlier request, already answered, are gone ({@link OpenFileTable}). The requester's next write
     * is refused with it ({@link #write}); else it is reported at every flush until the requester's
     * own (each close(2) of the open file flushes: a child's at exec or exit, a duplicate
     * descriptor's, and the writer may close last) or an fsync. A program that did hear it at
     * write(2) hears it once more, as after a failed writeback: it may not know that bytes before the
     * failing call were lost ({@link LostWrites}).
     * Nothing is written, nothing is forced; a read-only handle has no write of its own to report,
     * and is answered without trying one (on Linux 5.16 and later the kernel does not even ask for
     * such a handle: {@link NoFlushReplies}; older kernels flush at every close(2) of a file read).
     */
    void flush(long fh) throws IOException {
        if (!handles.writable(fh)) {
            return;
        }
        FileChannel ch = handles.get(fh);
        IOException collected = null;
        try {
            ch.write(ByteBuffer.allocate(0), 0);
        } catch (NonWritableChannelException readOnly) {
            // a channel that refuses writes although opened for them (a read-only backing)
        } catch (IOException e) {
            collected = lostWrites.noticed(fh, e);
        }
        IOException kept = lostWrites.keptForFlush(fh);
        if (kept != null) {
            throw kept;
        }
        if (collected != null) {
            throw collected;
        }
    }

    void release(long fh) throws IOException {
        StreamingReads r = reads.remove(fh);
        if (r != null) {
            r.close();
        }
        handles.release(fh);
    }

    /**
     * An existing file was just opened at {@code path}: if the kernel may hold another size for the
     * name (a sync client replaced the file behind the mount since it was given one), it drops its
     * cached attributes before the open is answered, and asks again at the program's first stat or
     * read past the size it holds, instead of cutting the file's reads at the old size. If that size
     * may be larger than the file, the open is also answered with direct I/O: the kernel's read-ahead
     * of the larger size sends several READs at once, and where the empty answer past the file's end
     * reached it before the short one, it kept the larger size and the file read with zeros after its
     * end. Direct I/O costs such an open the page cache and read-ahead (and a shared mmap of it fails);
     * the larger size stays kept until it expires, so every open of the name until then goes so.
     */
    private void checkKernelSize(String path, FileChannel opened, Runnable pastPageCache) throws IOException {
        KernelSizes.Verdict verdict = kernelSizes.verdict(path, opened.size());
        if (verdict == KernelSizes.Verdict.CURRENT) {
            return;
        }
        // The notes stay: the kernel's next answer adds to them, and an open before that checks again.
        WorkerRequest.dropCachedAttributes();
        if (verdict == KernelSizes.Verdict.SHRUNK) {
            pastPageCache.run();
        }
    }

    /**
     * A truncate through handle {@code fh} is about to set its file's size: the sizes its name was
     * given so far no longer count, since the kernel takes this SETATTR's answer and discards older
     * ones (the fgetattr libfuse makes after it notes the new size).
     */
    private void sizeChangesHere(long fh) {
        String at = handles.writesAt(fh);
        if (at != null) {
            kernelSizes.forget(at);
        }
    }

    /**
     * A write through handle {@code fh} left its file at {@code sizeAfter}: the kernel now holds the
     * larger of the size it had and the write's end ({@link KernelSizes#wrote}). Before session 38's
     * third review a write forgot the name's sizes, as a truncate does, and a file a sync client had
     * shortened read with zeros after its end again once written to.
     */
    private void wroteHere(long fh, long sizeAfter) {
        String at = handles.writesAt(fh);
        if (at != null) {
            kernelSizes.wrote(at, sizeAfter);
        }
    }

    /** Read requests answered from a {@link ReadStream} so far (tests check that streaming happened). */
    long streamedReads() {
        return streamed.sum();
    }

    /** The read-stream state of handle {@code fh}, or null before its first read (tests look at it). */
    StreamingReads readsOf(long fh) {
        return reads.get(fh);
    }

    /** Rings free for new streams (tests check that every ended stream gave its ring back). */
    int freeRings() {
        return rings.availablePermits();
    }

    /** Stops every read stream (the mount is going away; the handles are closed next). */
    void stopStreams() {
        List<Long> open = new ArrayList<>(reads.keySet());
        for (long fh : open) {
            StreamingReads r = reads.remove(fh);
            if (r != null) {
                r.close();
            }
        }
    }

    /**
     * The kernel's GETATTR with a handle (a read past the size it has, lseek SEEK_END, libfuse's
     * look after a create), {@code stat} filled from the path: the size becomes the handle's file's.
     * They differ only when the path names another file now (a sync client replaced the ciphertext
     * under the open file: the vault reports the file on disk for the path, the channel keeps its
     * own), and answering with the path's size cut the handle's reads short at it. The channel
     * knows its size without a system call on a vault (one fstat on a plain folder).
     */
    void sizeOfHandle(long fh, FileStat stat) throws IOException {
        long size = handles.get(fh).size();
        if (size != stat.st_size.longValue()) {
            StatFiller.size(stat, size);
        }
    }

    /** The attributes of an open file whose name is gone (unlinked while open, or deleted underneath): size from the channel. */
    void fillUnlinked(long fh, FileStat stat) throws IOException {
        long size = handles.get(fh).size();
        FileTime now = FileTime.fromMillis(System.currentTimeMillis());
        StatFiller.fill(stat, FileStat.S_IFREG | StatFiller.DEFAULT_FILE_MODE, size, now, now, backing);
    }

    /**
     * Shrinks, or grows by writing a zero at the new end (NIO's truncate never grows). Looking at the
     * size and changing it needs no lock here: without a writeback cache the kernel holds the file's
     * inode lock across each write and each truncate, so no write of the same file lands in between.
     */
    private static void resize(FileChannel ch, long size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("negative size");
        }
        long current = ch.size();
        if (size < current) {
            ch.truncate(size);
        } else if (size > current) {
            ch.write(ByteBuffer.wrap(new byte[1]), size - 1); // NIO's truncate never grows
        }
    }

    private Set<OpenOption> accessOptions(int flags) {
        Set<OpenOption> options = new HashSet<>();
        options.add(LinkOption.NOFOLLOW_LINKS); // the kernel has resolved every link already
        if (flagBits.writesOnly(flags)) {
            options.add(StandardOpenOption.WRITE);
        } else if (flagBits.readsAndWrites(flags)) {
            options.add(StandardOpenOption.READ);
            options.add(StandardOpenOption.WRITE);
        } else {
            options.add(StandardOpenOption.READ);
        }
        return options;
    }

    /** Whether the open flags {@code flags} (a write request's: the file's flags then) have O_APPEND. */
    boolean appends(int flags) {
        return flagBits.appends(flags);
    }

    private byte[] buffer(long size) {
        if (size < 0 || size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("request size " + size);
        }
        byte[] b = buffers.get();
        if (b.length < size) {
            b = new byte[(int) size];
            buffers.set(b);
        }
        return b;
    }
}
