package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.testing.DelegatingChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A truncate that grows a file keeps what a write made meanwhile: the grow looked at the size, then
 * wrote a zero at the new end, and a write landing between the two (another handle, another thread)
 * lost its byte there. No mount: FileOps over a plain folder, with the write made to land in that
 * window (the channel's size() starts it and gives it time to finish). A large grow goes in steps,
 * and a write of another file that queued during one step goes before the next.
 */
class GrowingTruncateTest {
    private static final int O_RDWR = 02;

    @TempDir
    Path tmp;

    private final OpenFileTable handles = new OpenFileTable();

    @Test
    void aWriteAtTheNewEndDuringAGrowingTruncateIsKept() throws Exception {
        Files.writeString(tmp.resolve("f"), "0123");
        FileOps files = new FileOps(new Backing(tmp, 0, 0), handles, new ContentChanges());
        long writer = files.open("/f", O_RDWR);
        CompletableFuture<Void> write = new CompletableFuture<>();
        FileChannel real = FileChannel.open(tmp.resolve("f"), StandardOpenOption.READ, StandardOpenOption.WRITE);
        long truncater = handles.add(new DelegatingChannel(real) {
            private boolean first = true;

            @Override
            public long size() throws IOException {
                long size = super.size();
                if (first) {
                    first = false;
                    CompletableFuture.runAsync(() -> {
                        try {
                            files.write(writer, bytes("ABCD"), 4, 8, false); // covers the new end, 10
                            write.complete(null);
                        } catch (IOException e) {
                            write.completeExceptionally(e);
                        }
                    });
                    try {
                        write.get(500, TimeUnit.MILLISECONDS); // fixed: it waits for the truncate instead
                    } catch (TimeoutException | InterruptedException | java.util.concurrent.ExecutionException e) {
                        // the write goes on after the truncate
                    }
                }
                return size;
            }
        }, true);

        files.ftruncate(truncater, 10);
        write.get(10, TimeUnit.SECONDS);

        files.release(truncater);
        files.release(writer);
        assertThat(Files.readString(tmp.resolve("f"))).isEqualTo("0123\0\0\0\0ABCD");
    }

    @Test
    void aWriteOfAnotherFileQueuedDuringOneStepOfALargeGrowGoesBeforeTheNextStep() throws Exception {
        Files.writeString(tmp.resolve("big"), "0123");
        Files.writeString(tmp.resolve("other"), "");
        FileOps files = new FileOps(new Backing(tmp, 0, 0), handles, new ContentChanges());
        long other = files.open("/other", O_RDWR);
        Pointer x = bytes("x");
        CompletableFuture<Void> write = new CompletableFuture<>();
        Thread writer = new Thread(() -> {
            try {
                files.write(other, x, 1, 0, false);
                write.complete(null);
            } catch (IOException | RuntimeException e) {
                write.completeExceptionally(e);
            }
        });
        AtomicInteger sizesLookedAt = new AtomicInteger();
        AtomicBoolean writtenBeforeSecondStep = new AtomicBoolean();
        FileChannel real = FileChannel.open(tmp.resolve("big"), StandardOpenOption.READ, StandardOpenOption.WRITE);
        long grower = handles.add(new DelegatingChannel(real) {
            @Override
            public long size() throws IOException {
                if (sizesLookedAt.incrementAndGet() == 2) { // the second step, holding the lock again
                    writtenBeforeSecondStep.set(Files.size(tmp.resolve("other")) == 1); // (its call may not have returned yet)
                }
                return super.size();
            }

            @Override
            public int write(ByteBuffer src, long position) throws IOException {
                int n = super.write(src, position);
                if (!writer.isAlive() && !write.isDone()) { // the first step's zero, the lock held
                    writer.start();
                    while (writer.getState() != Thread.State.WAITING && !write.isDone()) {
                        Thread.onSpinWait(); // until it waits for the lock (or, wrongly, did not have to)
                    }
                }
                return n;
            }
        }, true);

        long size = 4 + 3 * FileOps.GROW_STEP; // sparse in the temporary folder
        files.ftruncate(grower, size);
        write.get(10, TimeUnit.SECONDS);

        files.release(grower);
        files.release(other);
        assertThat(writtenBeforeSecondStep).as("the other file's write went between the grow's steps").isTrue();
        assertThat(sizesLookedAt).hasValue(4); // three steps, and a look that finds the size reached
        assertThat(Files.size(tmp.resolve("big"))).isEqualTo(size);
        assertThat(Files.readString(tmp.resolve("other"))).isEqualTo("x");
        try (FileChannel big = FileChannel.open(tmp.resolve("big"))) {
            ByteBuffer start = ByteBuffer.allocate(4);
            big.read(start, 0);
            assertThat(new String(start.array(), java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("0123");
            ByteBuffer end = ByteBuffer.allocate(8);
            big.read(end, size - 8);
            assertThat(end.array()).containsOnly(0);
        }
    }

    @Test
    void aShrinkingTruncateCutsInOneGoAndAGrowStopsAtItsSize() throws Exception {
        Files.writeString(tmp.resolve("f"), "0123456789");
        FileOps files = new FileOps(new Backing(tmp, 0, 0), handles, new ContentChanges());
        AtomicInteger writes = new AtomicInteger();
        FileChannel real = FileChannel.open(tmp.resolve("f"), StandardOpenOption.READ, StandardOpenOption.WRITE);
        long fh = handles.add(new DelegatingChannel(real) {
            @Override
            public int write(ByteBuffer src, long position) throws IOException {
                writes.incrementAndGet();
                return super.write(src, position);
            }
        }, true);

        files.ftruncate(fh, 4);
        assertThat(Files.readString(tmp.resolve("f"))).isEqualTo("0123");
        assertThat(writes).hasValue(0);
        files.ftruncate(fh, 4);
        assertThat(writes).hasValue(0);
        files.truncate("/f", 2);
        assertThat(Files.readString(tmp.resolve("f"))).isEqualTo("01");

        files.ftruncate(fh, FileOps.GROW_STEP + 2); // one step to GROW_STEP + 2, no further
        assertThat(writes).hasValue(1);
        assertThat(Files.size(tmp.resolve("f"))).isEqualTo(FileOps.GROW_STEP + 2);
        files.release(fh);
    }

    private static Pointer bytes(String s) {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Pointer p = Memory.allocateDirect(Runtime.getSystemRuntime(), b.length);
        p.put(0, b, 0, b.length);
        return p;
    }
}
