package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.content.EarlierWriteLostException;
import dev.coffer.core.testing.DelegatingChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * flush (every close(2)): a handle opened for writing reports a write request's failure the kernel
 * may have dropped, then asks its channel for a failure written behind (a zero-length write), a handle opened for reading only is answered at once without asking, and
 * an unknown handle is EBADF; every open and create records which kind its handle is.
 */
class FlushTest {
    @TempDir
    Path tmp;

    private final OpenFileTable handles = new OpenFileTable();

    @Test
    void aReadOnlyHandleIsFlushedWithoutAWrite() throws IOException {
        long fh = handles.add(counting(writes, null), false);
        files().flush(fh);
        assertThat(writes).hasValue(0);
        handles.release(fh);
    }

    @Test
    void aWritableHandleReportsAFailureWrittenBehind() throws IOException {
        long fh = handles.add(counting(writes, new IOException("No space left on device")), true);
        assertThatThrownBy(() -> files().flush(fh)).isInstanceOf(IOException.class).hasMessageContaining("No space left");
        assertThat(writes).hasValue(1);
        handles.release(fh);
    }

    /** As a vault words the failure of an append that ran behind, thrown by the next write. */
    private static final String EARLIER_WRITE_LOST = EarlierWriteLostException.MESSAGE_START + ": No space left on device";

    /** The frontend knows java.nio only, so it recognises the vault's report by how its message begins. */
    @Test
    void theFrontendKnowsHowTheVaultWordsALostEarlierWrite() {
        assertThat(LostWrites.EARLIER_WRITE_LOST).isEqualTo(EarlierWriteLostException.MESSAGE_START);
    }

    /** Who sends the requests: FUSE's pid, the sending thread's ID. */
    private final AtomicLong requester = new AtomicLong();
    /** Positional writes the channel of a test was asked for (zero-length ones too). */
    private final AtomicInteger writes = new AtomicInteger();
    /** A request's 16 bytes, in native memory as libfuse hands them over. */
    private final Pointer data = Memory.allocateDirect(Runtime.getSystemRuntime(), 16);

    /**
     * The kernel drops the error of a write request that is not the first of its write(2) (the
     * program gets a short count): a report that an earlier write was lost is reported again at
     * every flush of the handle (each close(2) of the open file: a child's at exec or exit, a dup's),
     * after the channel was asked for its own, until the writer's own flush or an fsync takes it.
     */
    @Test
    void aLostEarlierWriteIsReportedAtEveryFlushUntilTheWritersOwn() throws IOException {
        IOException full = new IOException(EARLIER_WRITE_LOST);
        long fh = handles.add(failingNonEmptyWrites(writes, full), true);
        FileOps files = files();

        requester.set(100);
        assertThatThrownBy(() -> files.write(fh, data, 16, 0, false)).isSameAs(full);
        requester.set(200);
        assertThatThrownBy(() -> files.flush(fh)).as("a child's close").isSameAs(full);
        assertThatThrownBy(() -> files.flush(fh)).as("another close of the open file").isSameAs(full);
        assertThat(writes).as("each flush asked the channel first").hasValue(3);
        requester.set(100);
        assertThatThrownBy(() -> files.flush(fh)).as("the writer's own close").isSameAs(full);
        requester.set(200);
        files.flush(fh);
        assertThat(writes).hasValue(5);
        handles.release(fh);
    }

    /** The requester's next write is refused with its kept report, which is then told. */
    @Test
    void aLostEarlierWriteRefusesTheSameRequestersNextWrite() throws IOException {
        IOException full = new IOException(EARLIER_WRITE_LOST);
        long fh = handles.add(failingNonEmptyWrites(writes, full), true);
        FileOps files = files();

        requester.set(100);
        assertThatThrownBy(() -> files.write(fh, data, 16, 0, false)).isSameAs(full);
        requester.set(200);
        assertThatThrownBy(() -> files.write(fh, data, 16, 0, false)).as("another requester writes: its own outcome")
                .isSameAs(full);
        assertThat(writes).hasValue(2);
        requester.set(100);
        assertThatThrownBy(() -> files.write(fh, data, 16, 0, false)).as("the requester's retry").isSameAs(full);
        assertThat(writes).as("refused without writing").hasValue(2);
        requester.set(200);
        assertThatThrownBy(() -> files.flush(fh)).as("the other requester's own, kept from its write").isSameAs(full);
        requester.set(100);
        files.flush(fh);
        handles.release(fh);
    }

    /**
     * A loss another sender's close came upon first (a child's close at exec: the kernel drops its
     * error) is kept for the handle's latest writer: its next two writes are refused with it.
     */
    @Test
    void aLossAnotherSendersCloseCameUponIsKeptForTheLatestWriter() throws IOException {
        IOException lost = new IOException(EARLIER_WRITE_LOST);
        Path file = Files.writeString(tmp.resolve("file"), "content");
        AtomicInteger flushes = new AtomicInteger();
        FileChannel ch = new DelegatingChannel(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            @Override
            public int write(ByteBuffer src, long position) throws IOException {
                if (!src.hasRemaining() && flushes.incrementAndGet() == 1) {
                    throw lost; // the first flush point drains the write that ran behind and failed
                }
                return d.write(src, position);
            }
        };
        long fh = handles.add(ch, true);
        FileOps files = files();

        requester.set(100);
        assertThat(files.write(fh, data, 16, 0, false)).isEqualTo(16);
        requester.set(200);
        assertThatThrownBy(() -> files.flush(fh)).as("the child's close at exec").isSameAs(lost);
        requester.set(100);
        assertThatThrownBy(() -> files.write(fh, data, 16, 16, false)).as("the writer's next write").isSameAs(lost);
        assertThatThrownBy(() -> files.write(fh, data, 16, 16, false))
                .as("and the one after: the first refusal may have been a later request of a write(2), whose error the kernel drops")
                .isSameAs(lost);
        assertThat(files.write(fh, data, 16, 16, false)).as("then writing goes on").isEqualTo(16);
        files.flush(fh);
        handles.release(fh);
    }

    /** Two processes sharing the handle, each with a loss: each hears its own at its close. */
    @Test
    void eachRequesterHearsOfItsOwnLossAtItsClose() throws IOException {
        IOException first = new IOException(EARLIER_WRITE_LOST);
        IOException second = new IOException(EARLIER_WRITE_LOST);
        long fh = handles.add(failingNonEmptyWrites(writes, first), true);
        FileOps files = files();
        handles.noteWriteFailure(fh, first, 100);
        handles.noteWriteFailure(fh, second, 200);

        requester.set(100);
        assertThatThrownBy(() -> files.flush(fh)).isSameAs(first);
        requester.set(200);
        assertThatThrownBy(() -> files.flush(fh)).isSameAs(second);
        files.flush(fh);
        handles.release(fh);
    }

    @Test
    void aLostEarlierWriteIsReportedAgainOnceAtTheNextFsync() throws IOException {
        IOException full = new IOException(EARLIER_WRITE_LOST);
        long fh = handles.add(failingNonEmptyWrites(writes, full), true);
        FileOps files = files();

        requester.set(100);
        assertThatThrownBy(() -> files.write(fh, data, 16, 0, false)).isSameAs(full);
        requester.set(200);
        assertThatThrownBy(() -> files.fsync(fh, false)).isSameAs(full);
        files.fsync(fh, false);
        files.flush(fh);
        handles.release(fh);
    }

    /** A write's own failure lost nothing (the kernel's count says what was written): not reported again. */
    @Test
    void aWritesOwnFailureIsNotReportedAgain() throws IOException {
        IOException full = new IOException("No space left on device");
        long fh = handles.add(failingNonEmptyWrites(writes, full), true);
        FileOps files = files();

        assertThatThrownBy(() -> files.write(fh, data, 16, 0, false)).isSameAs(full);
        files.flush(fh);
        files.fsync(fh, false);
        assertThat(writes).as("the flush asked the channel").hasValue(2);
        handles.release(fh);
    }

    /** The flag flush relies on, for every way a handle is made: only an O_RDONLY open is read-only. */
    @Test
    void everyHandleOpenedForWritingIsMarkedWritable() throws IOException {
        Files.writeString(tmp.resolve("existing"), "content");
        FileOps files = files();
        int rdonly = 0;
        int wronly = 01;
        int rdwr = 02;
        int trunc = 01000;
        int excl = 0200;
        assertThat(writable(files.open("/existing", rdonly))).isFalse();
        assertThat(writable(files.open("/existing", rdonly | trunc))).isFalse();
        assertThat(writable(files.open("/existing", wronly))).isTrue();
        assertThat(writable(files.open("/existing", rdwr))).isTrue();
        assertThat(writable(files.open("/existing", rdwr | trunc))).isTrue();
        assertThat(writable(files.create("/new", 0644, wronly | excl))).isTrue();
        assertThat(writable(files.create("/new", 0644, rdwr))).isTrue();
        assertThat(writable(files.create("/other", 0644, rdonly))).isTrue();
    }

    private boolean writable(long fh) throws IOException {
        boolean writable = handles.writable(fh);
        handles.release(fh);
        return writable;
    }

    @Test
    void anUnknownHandleIsEbadf() {
        assertThatThrownBy(() -> files().flush(42)).isInstanceOf(ClosedChannelException.class);
    }

    private FileOps files() {
        return new FileOps(new Backing(tmp, 0, 0), handles, new ContentChanges(), StreamTiming.MOUNT, OpenFlagBits.HOST, requester::get);
    }

    /** A channel on a real file that counts positional writes and fails those with bytes to write. */
    private FileChannel failingNonEmptyWrites(AtomicInteger writes, IOException failure) throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "content");
        return new DelegatingChannel(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            @Override
            public int write(ByteBuffer src, long position) throws IOException {
                writes.incrementAndGet();
                if (src.hasRemaining()) {
                    throw failure;
                }
                return d.write(src, position);
            }
        };
    }

    /** A channel on a real file that counts positional writes and fails them with {@code failure} if given. */
    private FileChannel counting(AtomicInteger writes, IOException failure) throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "content");
        return new DelegatingChannel(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            @Override
            public int write(ByteBuffer src, long position) throws IOException {
                writes.incrementAndGet();
                if (failure != null) {
                    throw failure;
                }
                return d.write(src, position);
            }
        };
    }
}
